// VUs that share V8 isolates (native/vu_host.cc): each VU is a thread with its own context, a group of
// them (LOADLAB_VUS_PER_ISOLATE, default 10) shares one isolate, and a VU blocked in a call to this
// thread or in a sleep leaves the isolate to the others. The VU's code is the isolate bundle
// (vu/isolate/entry.ts completes its host API over the addon's natives). The default host
// (vu-host-choice.ts); LOADLAB_VU_HOST=shared asks for it by name.
import { setFlagsFromString } from 'node:v8';
import type { NativeCallKind } from '../bridge/isolate-api.js';
import type { BridgeCall, HostEvent, WorkerCommand, WorkerEvent } from '../bridge/protocol.js';
import { ISOLATE_FILENAME, isolateCode } from '../vu/isolate-code.js';
import {
  digestForIsolate,
  isolateClockBase,
  parseUrlForIsolate,
  randomBytesForIsolate,
  readFileForIsolate,
} from './isolate-functions.js';
import { loadVuHostAddon, type VuHostAddon } from './native/vu-host-addon.js';
import { savedCodeCache, type SavedCodeCache } from './saved-code-cache.js';
import {
  VU_HEAP_LIMIT_MB,
  VuOutOfMemory,
  type StartVuCode,
  type VuCodeHandlers,
  type VuCodeHost,
} from './vu-code-host.js';

const DEFAULT_VUS_PER_ISOLATE = 10;

/** How many VUs share an isolate: LOADLAB_VUS_PER_ISOLATE, else the default; or why the value is refused. */
export function vusPerIsolate(env: NodeJS.ProcessEnv = process.env): number | string {
  const given = env.LOADLAB_VUS_PER_ISOLATE;
  if (given === undefined || given === '') return DEFAULT_VUS_PER_ISOLATE;
  const n = Number(given);
  if (!/^\d+$/.test(given) || n < 1 || n > 1000)
    return `LOADLAB_VUS_PER_ISOLATE must be a whole number from 1 to 1000, not '${given}'`;
  return n;
}

interface Prepared {
  addon: VuHostAddon;
  code: string;
  perIsolate: number;
  /** Where V8's code cache of `code` is kept between runs (saved-code-cache.ts), and what it held. */
  saved: SavedCodeCache | undefined;
  cache: ArrayBuffer | undefined;
  /** Set once a VU was asked for the cache to keep: one per process. */
  cacheAsked: boolean;
}

let prepared: Prepared | undefined;
let preparing: Promise<Prepared> | undefined;

/** Loads (or builds) the addon and the VU code; to be awaited before the first VU starts. */
export function prepareSharedIsolates(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  preparing ??= (async () => {
    const perIsolate = vusPerIsolate(env);
    if (typeof perIsolate === 'string') throw new Error(perIsolate);
    // collection.ts asks V8 for full collections: contexts made from now on get a gc() (isolate/host.ts
    // takes it off the global before the script runs).
    setFlagsFromString('--expose-gc');
    // V8's WebAssembly code GC (of undici's parser, on this thread) visits every isolate's threads and
    // dies on a VU isolate's archived ones ("archived threads in combination with wasm not supported").
    setFlagsFromString('--no-wasm-code-gc');
    const [addon, code] = await Promise.all([loadVuHostAddon(env), isolateCode()]);
    const saved = savedCodeCache(code, env);
    prepared = { addon, code, perIsolate, saved, cache: saved?.read(), cacheAsked: false };
    return prepared;
  })();
  return preparing.then(() => undefined);
}

/** The group VUs join until it holds perIsolate of them; closed then, or once all of its VUs ended. */
class Group {
  readonly handle: object;
  joined = 0;
  live = 0;
  closed = false;
  constructor(
    private readonly addon: VuHostAddon,
    code: string,
    cache: ArrayBuffer | undefined,
  ) {
    this.handle = addon.group({ heapMb: VU_HEAP_LIMIT_MB, code, filename: ISOLATE_FILENAME, cache });
  }
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.addon.closeGroup(this.handle);
  }
}

let openGroup: Group | undefined;

/**
 * The group VU `vuId` joins: the open one, or a new one. VU 0 (setup, teardown, handleSummary, as k6's
 * extra VUs) has an isolate of its own: a test VU still busy in its init or an iteration when a phase
 * comes must not hold the phase's VU back.
 */
function groupToJoin(p: Prepared, vuId: number): { group: Group; size: number } {
  if (vuId === 0) return { group: new Group(p.addon, p.code, p.cache), size: 1 };
  if (!openGroup || openGroup.closed) openGroup = new Group(p.addon, p.code, p.cache);
  return { group: openGroup, size: p.perIsolate };
}

/** A VU started in `group`: once it holds `size` of them, it is closed. */
function joined(group: Group, size: number): void {
  group.joined += 1;
  group.live += 1;
  if (group.joined >= size) group.close();
}

function leaveGroup(group: Group): void {
  group.live -= 1;
  // The run's last, partial group: nothing more joins it once its VUs ended.
  if (group.live === 0) group.close();
}

export const startSharedIsolateVuCode: StartVuCode = (init, handlers) => {
  if (!prepared) throw new Error('prepareSharedIsolates() was not awaited before the first VU');
  return new SharedIsolateVuCode(prepared, init, handlers);
};

/** An answer's error as the isolate rebuilds it (vu/isolate/native-host.ts). */
const thrown = (error: unknown) =>
  error instanceof Error
    ? { name: error.name, message: error.message }
    : { name: 'Error', message: String(error) };

class SharedIsolateVuCode implements VuCodeHost {
  private readonly vu: object;
  private readonly group: Group;
  private readonly addon: VuHostAddon;
  private readonly vuId: number;
  private readonly sourceMap: string | undefined;
  /** Set once the VU's thread ended: its handle is gone. */
  private exited = false;
  /** Set once this side ended it (close, terminate): its end is no failure. */
  private ending = false;
  private readonly exit: Promise<void>;
  private resolveExit!: () => void;
  /** The code cache asked of this VU, once it comes. */
  private onCodeCache: ((cache: ArrayBuffer) => void) | undefined;
  private readonly prepared: Prepared;

  constructor(
    p: Prepared,
    init: Parameters<StartVuCode>[0],
    private readonly handlers: VuCodeHandlers,
  ) {
    this.addon = p.addon;
    this.prepared = p;
    this.vuId = init.vuId;
    this.exit = new Promise((resolve) => (this.resolveExit = resolve));
    const { sourceMap, ...bundle } = init.bundle;
    this.sourceMap = sourceMap;
    const { group, size } = groupToJoin(p, init.vuId);
    this.group = group;
    this.vu = p.addon.start(this.group.handle, {
      data: {
        init: { ...init, bundle },
        timeOrigin: performance.timeOrigin,
        clockBase: isolateClockBase(),
        cwd: process.cwd(),
      },
      receive: (kind, value, needsAnswer) => this.receive(kind, value, needsAnswer),
    });
    joined(this.group, size);
  }

  private receive(kind: string, value: unknown, needsAnswer: boolean): void {
    if (kind === 'exit') return this.exited_(value as string);
    if (kind === 'codeCache') return this.onCodeCache?.(value as ArrayBuffer);
    if (needsAnswer) return this.answer(kind as NativeCallKind, value);
    if (kind === 'post') {
      if (!this.ending) this.handlers.onEvent(value as WorkerEvent);
    } else if (kind === 'send') {
      void this.handlers.onCall(value as BridgeCall);
    } else if (kind === 'timer') {
      const [id, ms] = value as [number, number];
      const fire = () => {
        if (!this.exited) this.addon.dispatch(this.vu, { timer: id });
      };
      if (ms > 0) setTimeout(fire, ms);
      else setImmediate(fire);
    }
  }

  private answer(kind: NativeCallKind, value: unknown): void {
    const reply = (ok: boolean, answer: unknown) => {
      if (!this.exited) this.addon.answer(this.vu, ok, answer);
    };
    try {
      const answer = this.call(kind, value);
      if (answer instanceof Promise)
        answer.then(
          (settled) => reply(true, settled),
          (error: unknown) => reply(false, thrown(error)),
        );
      else reply(true, answer);
    } catch (error) {
      reply(false, thrown(error));
    }
  }

  private call(kind: NativeCallKind, value: unknown): unknown {
    switch (kind) {
      case 'call':
        return this.handlers.onCall(value as BridgeCall);
      case 'readFile':
        return readFileForIsolate(value as string);
      case 'digest': {
        const [algorithm, data, key] = value as [string, Uint8Array, Uint8Array | undefined];
        return digestForIsolate(algorithm, data, key);
      }
      case 'randomBytes':
        return randomBytesForIsolate(value as number);
      case 'parseUrl': {
        const [input, base] = value as [string, string | undefined];
        return parseUrlForIsolate(input, base);
      }
      case 'sourceMap':
        return this.sourceMap;
    }
  }

  private exited_(reason: string): void {
    this.exited = true;
    this.onCodeCache?.(new ArrayBuffer(0));
    leaveGroup(this.group);
    this.resolveExit();
    if (reason === 'oom') this.handlers.onFailure(new VuOutOfMemory(this.vuId, true));
    else if (!this.ending)
      this.handlers.onFailure(new Error(`VU ${this.vuId}: ${reason || 'its thread ended unasked'}`));
  }

  command(cmd: WorkerCommand): void {
    if (!this.exited) this.addon.dispatch(this.vu, { command: cmd });
  }

  /** http.asyncRequest's answers (k6/net/grpc's events go to worker-hosted VUs alone, vu-host-choice.ts). */
  hostEvent(event: HostEvent): void {
    if (!this.exited) this.addon.dispatch(this.vu, { event });
  }

  wake(): void {
    if (!this.exited) this.addon.wake(this.vu);
  }

  /**
   * V8's code cache of the VUs' code, from the first test VU that ends between commands (it ran
   * iterations, so the cache holds what they compiled), kept for the next run, whose isolates then
   * compile none of it: one per process.
   */
  private async keepCodeCache(): Promise<void> {
    const p = this.prepared;
    if (!p.saved || p.cacheAsked || this.vuId === 0 || this.exited) return;
    p.cacheAsked = true;
    const cache = await new Promise<ArrayBuffer>((resolve) => {
      this.onCodeCache = resolve;
      this.addon.codeCache(this.vu);
    });
    this.onCodeCache = undefined;
    if (cache.byteLength > 0) p.saved.write(new Uint8Array(cache));
  }

  /** Busy: its code ends wherever it is; else it ends between commands, where it is. */
  async terminate(busy: boolean): Promise<void> {
    if (!busy) await this.keepCodeCache();
    this.ending = true;
    if (!this.exited) {
      if (busy) this.addon.terminate(this.vu);
      else this.addon.close(this.vu);
    }
    await this.exit;
  }
}
