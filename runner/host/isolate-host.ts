// A VU's code in a bare V8 isolate (isolated-vm): the VU's modules and the script run there, on a
// thread of isolated-vm's, with no Node API in reach; each blocking call (HTTP, cookie jars, gRPC)
// is one crossing to this thread and one back (applySyncPromise), and a VU that runs out of memory
// loses its isolate only. See ../vu/README.md.
import { createRequire } from 'node:module';
import { setFlagsFromString } from 'node:v8';
import type IsolatedVm from 'isolated-vm';
import { ISOLATE_HOST_GLOBAL, ISOLATE_VU_GLOBAL } from '../bridge/isolate-api.js';
import type { BridgeCall, HostEvent, WorkerCommand, WorkerEvent } from '../bridge/protocol.js';
import { ISOLATE_FILENAME } from '../vu/isolate-code.js';
import { CommandMailbox } from './command-mailbox.js';
import { IsolateCodeCache } from './isolate-code-cache.js';
import {
  digestForIsolate,
  isolateClockBase,
  parseUrlForIsolate,
  randomBytesForIsolate,
  readFileForIsolate,
} from './isolate-functions.js';
import {
  collectAtExit,
  leftToExit,
  noteIsolateDisposed,
  noteIsolateWork,
  trackIsolateCall,
  type IsolateOwner,
} from './isolate-exit.js';
import {
  VU_HEAP_LIMIT_MB,
  VuOutOfMemory,
  type StartVuCode,
  type VuCodeHandlers,
  type VuCodeHost,
} from './vu-code-host.js';

type Ivm = typeof IsolatedVm;

let ivm: Ivm | undefined;

/**
 * The isolated-vm release for this Node (runner/package.json has both): 5.x is the last for Node 20
 * and does not build on 24; 6.x needs 22 or later (npm skips it on 20) and ships prebuilt addons.
 * Only one may be loaded into a process: both define the same native symbols.
 */
const ISOLATED_VM_PACKAGE =
  Number(process.versions.node.split('.')[0]) >= 22 ? 'isolated-vm-6' : 'isolated-vm';

/**
 * isolated-vm, or why it cannot be used here: not installed, not built for this Node, or Node started
 * with its startup snapshot, which isolated-vm's isolates crash against (V8 shares read-only heap
 * data between isolates made from different snapshots: isolated-vm's README and its issue 420).
 * The launchers pass --no-node-snapshot; it cannot be set once Node runs, nor in NODE_OPTIONS for
 * a process that starts workers.
 */
export function loadIsolatedVm(execArgv: readonly string[] = process.execArgv): Ivm | Error {
  if (!execArgv.includes('--no-node-snapshot'))
    return new Error('Node was started without --no-node-snapshot');
  if (ivm) return ivm;
  try {
    ivm = createRequire(import.meta.url)(ISOLATED_VM_PACKAGE) as Ivm;
    // collection.ts asks V8 for full collections: contexts made from now on get a gc() (isolate/host.ts
    // takes it off the global before the script runs).
    setFlagsFromString('--expose-gc');
    collectAtExit();
    return ivm;
  } catch (error) {
    return error as Error;
  }
}

/** The main thread's functions every VU isolate gets (they close over nothing of one VU). */
function sharedFunctions(lib: Ivm) {
  return {
    // The isolate's thread runs again when the timer fires: work the exit must see.
    timer: new lib.Reference((ms: number) =>
      new Promise<void>((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve))).then(
        noteIsolateWork,
      ),
    ),
    readFile: new lib.Callback(readFileForIsolate),
    digest: new lib.Callback(digestForIsolate),
    randomBytes: new lib.Callback(randomBytesForIsolate),
    parseUrl: new lib.Callback(parseUrlForIsolate),
  };
}
let shared: ReturnType<typeof sharedFunctions> | undefined;

let codeCache: IsolateCodeCache | undefined;
/** The one preparation in progress or done: the run starts it early and awaits it when VUs are made. */
let preparing: Promise<void> | undefined;

/** Builds the isolate's code once per process; to be awaited before the first VU isolate starts. */
export function prepareIsolateCode(): Promise<void> {
  preparing ??= (async () => {
    const lib = loadIsolatedVm();
    if (lib instanceof Error) throw lib;
    codeCache = await IsolateCodeCache.prepare(lib);
  })();
  return preparing;
}

export const startIsolateVuCode: StartVuCode = (init, handlers) => {
  const lib = loadIsolatedVm();
  if (lib instanceof Error) throw lib;
  if (!codeCache) throw new Error('prepareIsolateCode() was not awaited before the first VU isolate');
  shared ??= sharedFunctions(lib);
  return new IsolateVuCode(lib, init, handlers, shared, codeCache);
};

interface VuEntryRefs {
  handle: IsolatedVm.Reference<unknown>;
  serve: IsolatedVm.Reference<unknown>;
}

class IsolateVuCode implements VuCodeHost, IsolateOwner {
  private readonly isolate: IsolatedVm.Isolate;
  /**
   * The isolate's context made, the VU's code compiled and evaluated: on the isolate's own thread
   * (the asynchronous calls), so the main thread is free while a thousand VUs start.
   */
  private readonly started: Promise<VuEntryRefs>;
  private ended = false;
  private readonly vuId: number;
  /** The first command's end (and the warm code cache's, when this VU made it), once it was sent. */
  private firstDone: Promise<unknown> | undefined;
  /** The serve loop's call, once started: it takes every command after the first. */
  private serving: Promise<unknown> | undefined;
  /** The commands the serve loop has not taken yet. */
  private readonly mailbox = new CommandMailbox<WorkerCommand>();

  constructor(
    lib: Ivm,
    init: Parameters<StartVuCode>[0],
    private readonly handlers: VuCodeHandlers,
    functions: ReturnType<typeof sharedFunctions>,
    private readonly codeCache: IsolateCodeCache,
  ) {
    this.vuId = init.vuId;
    this.isolate = new lib.Isolate({
      memoryLimit: VU_HEAP_LIMIT_MB,
      onCatastrophicError: (message) => this.failed(new Error(`VU ${init.vuId}: ${message}`)),
    });
    const { sourceMap, ...bundle } = init.bundle;
    const api = {
      init: { ...init, bundle },
      sourceMap: new lib.Callback(() => sourceMap),
      timeOrigin: performance.timeOrigin,
      clockBase: isolateClockBase(),
      cwd: process.cwd(),
      post: new lib.Callback((event: WorkerEvent) => this.event(event), { ignored: true }),
      send: new lib.Callback((message: BridgeCall) => handlers.onCall(message), { ignored: true }),
      call: new lib.Reference(async (message: BridgeCall) => {
        const answer = await handlers.onCall(message);
        return new lib.ExternalCopy(answer).copyInto({ release: true });
      }),
      // null (the mailbox closed) ends the serve loop.
      next: new lib.Reference(async () => {
        const cmd = await this.mailbox.take();
        return cmd === null ? null : new lib.ExternalCopy(cmd).copyInto({ release: true });
      }),
      lib: (lib as unknown as { lib: object }).lib,
      ...functions,
    };
    this.started = trackIsolateCall(this, this.start(lib, api));
    this.started.catch((error: Error) => this.failed(error));
  }

  private async start(lib: Ivm, api: object): Promise<VuEntryRefs> {
    const code = await this.codeCache.next();
    // Two rounds of calls into the isolate: the context and the compile at once, then the run, which
    // starts the VU. Each call is a hop to the isolate's thread and back; four in a row cost a
    // thousand VUs' start ~0.7 ms of CPU per VU more (bench/MEASUREMENTS.md).
    const [context, script] = await Promise.all([
      this.isolate.createContext(),
      this.isolate.compileScript(code.code, { filename: ISOLATE_FILENAME, cachedData: code.cache }),
    ]);
    // With the host's functions on its global, the bundle starts the VU as it runs (isolate/entry.ts).
    context.global.setSync(ISOLATE_HOST_GLOBAL, new lib.ExternalCopy(api).copyInto({ release: true }));
    await script.run(context, { release: true });
    // The isolate is idle now: a synchronous call costs this thread microseconds, an asynchronous
    // one a hop to the isolate's thread and back (about 0.1 ms of this thread's time each, a
    // thousand VUs starting).
    const entry = context.global.getSync(ISOLATE_VU_GLOBAL, { reference: true });
    const refs = {
      handle: entry.getSync('handle', { reference: true }),
      serve: entry.getSync('serve', { reference: true }),
    };
    entry.release();
    context.release();
    return refs;
  }

  private event(event: WorkerEvent): void {
    if (!this.ended) this.handlers.onEvent(event);
  }

  private failed(error: Error): void {
    if (this.ended) return;
    this.ended = true;
    // isolated-vm disposes an isolate that passed its memoryLimit and rejects what ran in it.
    noteIsolateDisposed();
    this.handlers.onFailure(/memory limit/.test(error.message) ? new VuOutOfMemory(this.vuId) : error);
  }

  /**
   * The first command (init) is a call of its own. The second starts the serve loop (once the first
   * ended, and once the first VU's isolate made the warm code cache), which takes that one and every
   * later one from the mailbox: started at init, a thousand loops held a thousand threads while the
   * other VUs still started, and each of their isolate calls had a thread made for it. Replies come
   * as events; a rejection of either call is the isolate lost (out of memory, disposed).
   */
  command(cmd: WorkerCommand): void {
    if (!this.firstDone) {
      const first = this.started
        .then(({ handle }) =>
          trackIsolateCall(
            this,
            handle.apply(undefined, [cmd], { arguments: { copy: true }, result: { promise: true } }),
          ),
        )
        .catch((error: Error) => this.failed(error));
      const warming = cmd.cmd === 'init' ? this.codeCache.warmFrom(this, this.isolate, first) : undefined;
      this.firstDone = warming ?? first;
      return;
    }
    if (this.mailbox.isWaiting) noteIsolateWork(); // the loop's thread runs again
    if (!this.mailbox.put(cmd) || this.serving) return;
    this.serving = this.firstDone
      .then(() => this.started)
      .then(({ serve }) => {
        if (this.ended) return undefined;
        return trackIsolateCall(this, serve.apply(undefined, [], { result: { promise: true } }));
      })
      .catch((error: Error) => this.failed(error));
  }

  /**
   * None is sent: scripts with asynchronous code, k6/net/grpc's among them, run on other hosts
   * (vu-host-choice.ts), and these VUs make http.asyncRequest's requests one at a time.
   */
  hostEvent(event: HostEvent): void {
    throw new Error(`VU ${this.vuId}: a ${event.t} event for an isolated-vm VU, which takes none`);
  }

  /**
   * Ends the isolate's code without reporting it as lost: a serve loop waiting for a command is
   * answered so that it returns, leaving the isolate idle; anything else running ends with the
   * isolate, disposed now (see command-mailbox.ts for why the two differ).
   */
  stop(): void {
    this.ended = true;
    if (this.mailbox.isWaiting) this.mailbox.close();
    else this.dispose();
  }

  /**
   * A VU that is not busy ends through its serve loop: the closed mailbox answers its next take
   * with null even when that take is still to come (the loop just posted a reply), so the isolate
   * is idle when disposed, and no call into it is left for the exit to wait for (isolate-exit.ts).
   */
  async terminate(busy: boolean): Promise<void> {
    const loopEnding = this.mailbox.isWaiting || !busy ? this.serving : undefined;
    // A VU whose only command (init: the VU 0 that read the options) ended is idle once that call is.
    const onlyFirst = !busy && !this.serving ? this.firstDone : undefined;
    this.ended = true;
    if (loopEnding) this.mailbox.close();
    else if (!onlyFirst) this.stop();
    await (loopEnding ?? onlyFirst);
    // Idle now, having run: the first such VU's compiled code is kept for the next run.
    if (loopEnding) await this.codeCache.saveFrom(this, this.isolate);
    // Idle, so safe for process.exit() to end with the process (isolate-exit.ts).
    if ((loopEnding || onlyFirst) && leftToExit()) this.mailbox.close();
    else this.dispose();
  }

  private dispose(): void {
    this.mailbox.close();
    if (!this.isolate.isDisposed) {
      this.isolate.dispose();
      noteIsolateDisposed();
    }
  }
}
