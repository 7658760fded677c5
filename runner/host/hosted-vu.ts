// A k6 VU for the Node runner: a context in a shared V8 isolate (shared-isolate-host.ts) or a worker
// thread (worker-host.ts) runs the bundled script with k6's synchronous API; this side owns
// the VU's HTTP transport and answers the VU's blocking calls. See ../vu/README.md.
import { fileURLToPath } from 'node:url';
import type { IterationView } from '../bridge/iteration-view.js';
import type { MetricType, Sample, ValueType } from '../contracts.js';
import {
  ScriptError,
  ScriptLoadError,
  UncaughtInInitError,
  UncaughtInPromiseError,
} from '../script/errors.js';
import { underBatchLimits } from './batch-limits.js';
import { failedHop, HttpEngine } from './http-engine.js';
import type { IdleLimits } from './go-connection-pool.js';
import { warmHttpPath } from './http-warmup.js';
import type { GrpcEngine } from './grpc-engine.js';
import { loadScript, type ScriptBundle } from '../script/load-script.js';
import {
  GO,
  INTERRUPT,
  LOOP_RAN,
  SC_INTERRUPTED,
  STARTED,
  VU_SLOTS,
  HTTP_FIRST_CLOSE_IDLE,
  HTTP_FIRST_RESET_JAR,
  type BatchLimits,
  type BridgeCall,
  type HttpCall,
  type IterationCounts,
  type JarAnswer,
  type JarOp,
  type LoopSpec,
  requestFromTuple,
  responseTuple,
  type RequestTuple,
  type ResponseTuple,
  type WireRequest,
  type WireResponse,
  type WorkerCommand,
  type WorkerEvent,
} from '../bridge/protocol.js';
import type { WorkerInit } from '../vu/worker-init.js';
import { decodeSamples } from '../bridge/sample-batch.js';
import { FILES_SEALED_KEY } from '../bridge/shared-keys.js';
import { HttpSampleBook } from './http-samples.js';
import { HTTP_ERROR_CODE } from '../bridge/http-error-codes.js';
import { VuOutOfMemory, type StartVuCode, type VuCodeHost } from './vu-code-host.js';
import { startWorkerVuCode } from './worker-host.js';
import { leftToExit } from './process-exit.js';

export { loadScript, ScriptError, ScriptLoadError, UncaughtInInitError, UncaughtInPromiseError };
export { closeWarmVuThreads, warmVuThreads } from './vu-threads.js';
export {
  INSTANCE_STATS,
  INSTANCE_STATS_BYTES,
  SC_COMPLETED,
  SC_INTERRUPTED,
  SC_LEFT,
  SC_STARTED,
  SCENARIO_SLOTS,
} from '../bridge/protocol.js';
export type { ScriptBundle, LoopSpec };

export interface VuConfig {
  scriptPath: string;
  bundle: ScriptBundle;
  vuId: number;
  env: Record<string, string>;
  runTags: Record<string, string>;
  systemTags?: string[];
  insecureSkipTLSVerify?: boolean;
  userAgent?: string;
  noConnectionReuse?: boolean;
  /** How many idle connections the VU keeps open (k6's batch and batchPerHost). */
  idleLimits?: IdleLimits;
  /** The run's shared exec.instance numbers (INSTANCE_STATS); a VU made alone counts only itself. */
  instanceStats?: SharedArrayBuffer;
  /** --secret-source secrets by source name (k6/secrets). */
  secretSources?: Record<string, Record<string, string>>;
  /**
   * What every VU of a run shares, one map for the run (keys: ../bridge/shared-keys.ts): SharedArrays
   * (k6/data) and the files read in init, each made or read once and read by all.
   */
  sharedArrays?: Map<string, SharedArrayBuffer>;
  /** What runs the VU's code (vu-host-choice.ts); a Node worker when not given. */
  startCode?: StartVuCode;
}

export interface VuHooks {
  onSamples(samples: Sample[]): void;
  onLog(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, string>): void;
  /** A secret the script read (k6/secrets): the run's logger redacts it from then on. */
  onSecret?(value: string): void;
}

/** What an iteration sees of its scenario and test (k6/execution): the worker's IterationView. */
export type IterationContext = IterationView;

export interface IterationResult {
  completed: boolean;
  error?: string;
  /** The error is an async default function's rejection: k6 logs it as an uncaught promise, with no `source`. */
  inPromise?: true;
  abort?: { reason: string };
  markFailed?: string;
}

export interface Vu {
  readonly id: number;
  /** Also the custom metrics the init context declared (name and type), for threshold validation. */
  init(): Promise<{
    options: Record<string, unknown>;
    exports: string[];
    metrics?: { name: string; type: MetricType; contains: ValueType }[];
  }>;
  runSetup(testOptions: Record<string, unknown>): Promise<unknown>;
  iterate(fnName: string, data: unknown, ctx: IterationContext): Promise<IterationResult>;
  /**
   * Runs iterations back to back in the worker until the spec's end, budget or stopLoop() (extension
   * of the contract, for the looping executors). onResult gets each iteration that failed, aborted or
   * called test.fail, before the promise resolves with the number of iterations started.
   */
  loop(spec: LoopSpec, onResult: (result: IterationResult) => void): Promise<{ ran: number }>;
  /** No further loop iteration starts (the running one goes on unless interrupted). */
  stopLoop(): void;
  /** Loop iterations started so far (also bumped by a loop that then stops); see worker-loop.ts. */
  loopSerial(): number;
  runTeardown(data: unknown, testOptions: Record<string, unknown>): Promise<void>;
  handleSummary(
    data: unknown,
    testOptions: Record<string, unknown>,
  ): Promise<Record<string, string | ArrayBuffer> | undefined>;
  interrupt(): void;
  close(): Promise<void>;
  /** Script cookie jars this VU's main-thread side holds (`new http.CookieJar()` not yet collected). */
  scriptJarCount(): number;
}

/** Where the worker imports k6/browser from (absolute, since the worker runs from an eval'd bundle). */
const FROM_SOURCES = import.meta.url.endsWith('.ts');
const BROWSER_MODULE_URL = new URL(
  FROM_SOURCES ? '../modules/browser/index.ts' : '../modules/browser/index.js',
  import.meta.url,
).href;
/** From sources the browser module is TypeScript: the worker registers tsx (resolved here) before importing it. */
const TSX_API_URL = FROM_SOURCES ? import.meta.resolve('tsx/esm/api') : undefined;

/** k6/net/grpc's protobuf library, by absolute path for the eval'd worker (see grpc-descriptors.ts). */
const PROTO_LOADER_PATH = fileURLToPath(import.meta.resolve('@grpc/proto-loader'));

type Command = WorkerCommand extends infer C ? (C extends { seq: number } ? Omit<C, 'seq'> : never) : never;

interface Pending {
  seq: number;
  cmd: Command['cmd'];
  resolve: (v: unknown) => void;
  reject: (e: Error) => void;
  /** The interrupt's deadline (FORCED_INTERRUPT_MS), cleared once the command settles. */
  forced?: NodeJS.Timeout;
}

/**
 * How long an interrupted iteration has to stop by itself (its next sleep, request or check of the
 * flag) before its worker is terminated. JavaScript that never calls k6 (`while (true) {}`) never
 * looks, and k6 stops such a VU all the same (goja's Interrupt): so must the runner.
 */
const FORCED_INTERRUPT_MS = 250;

/** Same scenario run, by value for its scalars and by identity for its env and tags objects. */
function sameScenario(a: IterationContext['scenario'], b: IterationContext['scenario']): boolean {
  return (
    a.name === b.name &&
    a.executor === b.executor &&
    a.startTime === b.startTime &&
    a.exec === b.exec &&
    a.env === b.env &&
    a.tags === b.tags
  );
}

class HostedVu implements Vu {
  readonly id: number;
  /** Replaced when an iteration has to be killed (see killBusyIteration). */
  private code!: VuCodeHost;
  private readonly startCode: StartVuCode;
  private readonly workerInit: Omit<WorkerInit, 'sharedArrays'>;
  /** A replacement worker's init, which every command waits for. */
  private ready: Promise<void> | undefined;
  /** The scenario counters of the loop command in flight, and its spec. */
  private loopCounters: Int32Array | undefined;
  private loopSpec: LoopSpec | undefined;
  private readonly engine: HttpEngine;
  /** k6/net/grpc connections, made on first use; its events go to the worker's event port. */
  private grpc: GrpcEngine | undefined;
  private grpcLoading: Promise<GrpcEngine> | undefined;
  /** Answers kept until the worker's sample rows for them arrive. */
  private readonly httpSamples: HttpSampleBook;
  private readonly signals = new Int32Array(new SharedArrayBuffer(4 * VU_SLOTS));
  /** The run's SharedArrays and init files (a VU made alone has its own map). */
  private readonly sharedArrays: Map<string, SharedArrayBuffer>;
  private onLoopResult: ((result: IterationResult) => void) | undefined;
  /** What the last 'iterate' command sent in full (see iterate()). */
  private lastIterate: { fnName: string; data: unknown; ctx: IterationContext } | undefined;
  private seq = 0;
  private pending: Pending | undefined;
  private exited: Error | undefined;
  private closed = false;

  constructor(
    config: VuConfig,
    private readonly hooks: VuHooks,
  ) {
    this.id = config.vuId;
    this.sharedArrays = config.sharedArrays ?? new Map();
    this.httpSamples = new HttpSampleBook(config.systemTags ? new Set(config.systemTags) : undefined);
    // The process's first HTTP exchange compiles undici's parser and code: done now, while the
    // worker starts, instead of inside the script's first request (http-warmup.ts).
    void warmHttpPath();
    this.engine = new HttpEngine({
      insecureSkipTLSVerify: config.insecureSkipTLSVerify,
      noConnectionReuse: config.noConnectionReuse,
      userAgent: config.userAgent,
      idleLimits: config.idleLimits,
    });
    this.workerInit = {
      scriptPath: config.scriptPath,
      bundle: config.bundle,
      vuId: config.vuId,
      env: config.env,
      runTags: config.runTags,
      systemTags: config.systemTags,
      signals: this.signals.buffer as SharedArrayBuffer,
      browserModuleUrl: BROWSER_MODULE_URL,
      tsxApiUrl: TSX_API_URL,
      protoLoaderPath: PROTO_LOADER_PATH,
      instanceStats: config.instanceStats,
      secretSources: config.secretSources,
    };
    this.startCode = config.startCode ?? startWorkerVuCode;
    this.startWorker();
    // A script that imports k6/net/grpc has @grpc/grpc-js loaded while its VUs start, as k6 has it
    // by then, not in the scenario's first call.
    if (config.bundle.k6Imports?.includes('k6/net/grpc')) void this.grpcEngine().catch(() => undefined);
  }

  /** The VU's code started for the script; events of code that was replaced are ignored. */
  private startWorker(): void {
    const workerData: WorkerInit = {
      ...this.workerInit,
      sharedArrays: Object.fromEntries(this.sharedArrays),
    };
    const code: VuCodeHost = this.startCode(workerData, {
      onEvent: (ev) => {
        if (code === this.code) this.onEvent(ev);
      },
      onCall: (msg) => this.onCall(msg),
      onFailure: (err) => {
        if (code !== this.code || this.closed) return;
        if (err instanceof VuOutOfMemory) this.outOfMemory(err);
        else this.fail(err);
      },
    });
    this.code = code;
  }

  /** A blocking call of the VU: its answer (or a promise of it), undefined for a call with none. */
  private onCall(msg: BridgeCall): unknown {
    // k6 empties the jar when an iteration starts; the VU says so on its first call after that.
    if (Array.isArray(msg)) {
      const reqs: WireRequest[] = [];
      for (let i = 1; i < msg.length; i++) reqs.push(requestFromTuple(msg[i] as RequestTuple));
      return this.serveHttp(msg[0], reqs);
    }
    if ('batch' in msg) return this.serveHttp(msg.first, msg.batch.map(requestFromTuple), msg.limits);
    if ('httpAsync' in msg) {
      this.serveHttpAsync(msg.httpAsync, msg.call);
      return undefined;
    }
    if ('grpcAsync' in msg) {
      const op = msg.grpcAsync;
      void this.grpcEngine().then((engine) => engine.post(op));
      return undefined;
    }
    if (msg.resetJar) this.engine.jar.clear();
    if ('grpc' in msg) {
      const op = msg.grpc;
      return this.grpcEngine().then((engine) => engine.serve(op));
    }
    return this.serveJar(msg.jar);
  }

  /** Loaded on a script's first gRPC call: runs without gRPC do not pay for @grpc/grpc-js. */
  private grpcEngine(): Promise<GrpcEngine> {
    this.grpcLoading ??= import('./grpc-engine.js').then(
      ({ GrpcEngine }) => (this.grpc = new GrpcEngine((event) => this.code.hostEvent(event))),
    );
    return this.grpcLoading;
  }

  /**
   * The interrupted iteration kept running JavaScript: its worker is terminated, the iteration ends
   * as interrupted (counted as k6 counts it), and a fresh worker runs the init code again for
   * whatever this VU does next (teardown, handleSummary, a later scenario).
   */
  private killBusyIteration(p: Pending): void {
    this.pending = undefined;
    const old = this.code;
    this.grpc?.closeAll();
    this.startWorker();
    void old.terminate(true);
    this.lastIterate = undefined;
    if (p.cmd === 'loop') {
      if (this.loopCounters) Atomics.add(this.loopCounters, SC_INTERRUPTED, 1);
      p.resolve({ ran: Atomics.load(this.signals, LOOP_RAN) });
    } else {
      p.resolve({ completed: false } satisfies IterationResult);
    }
    this.ready = this.sendNow<unknown>({ cmd: 'init' }).then(
      () => {
        this.ready = undefined;
      },
      (err: Error) => {
        this.ready = undefined;
        this.fail(err);
      },
    );
  }

  /**
   * http.asyncRequest: the answers go back as an event, to the VU's code that asked (an interrupted
   * iteration's worker is gone, and the code that replaced it never asked).
   */
  private serveHttpAsync([first, ...requests]: HttpCall, call: number): void {
    const code = this.code;
    void this.serveHttp(first, requests.map(requestFromTuple)).then((answers) => {
      if (code === this.code && !this.closed) code.hostEvent({ t: 'http', call, answers });
    });
  }

  /** An HTTP call's requests, after what it asks first (HTTP_FIRST_* bits). */
  private async serveHttp(
    first: number,
    reqs: WireRequest[],
    limits?: BatchLimits,
  ): Promise<ResponseTuple[]> {
    if (first & HTTP_FIRST_RESET_JAR) this.engine.jar.clear();
    if (first & HTTP_FIRST_CLOSE_IDLE) await this.engine.closeIdleConnections();
    let answers: WireResponse[];
    try {
      // One request (all but http.batch) skips Promise.all and its array of promises.
      answers =
        reqs.length === 1
          ? [await this.engine.request(reqs[0]!)]
          : limits
            ? await underBatchLimits(
                reqs,
                (r) => r.url,
                limits,
                (r) => this.engine.request(r),
              )
            : await Promise.all(reqs.map((r) => this.engine.request(r)));
    } catch (err) {
      // The engine turns network failures into hops; reaching here is a bug, answer rather than hang the VU.
      const e = err as Error;
      answers = reqs.map((r) => ({
        hops: [failedHop(r.method, r.url, [], { error: e.message, code: HTTP_ERROR_CODE.default })],
        sent: 0,
        received: 0,
      }));
    }
    // Kept before the answer leaves: the worker's sample row for a request follows its answer.
    for (let i = 0; i < reqs.length; i++) this.httpSamples.answered(reqs[i]!, answers[i]!);
    return answers.map(responseTuple);
  }

  private serveJar(op: JarOp): JarAnswer {
    let url: URL;
    try {
      url = new URL(op.url);
    } catch {
      return { ok: false, error: `invalid URL: "${op.url}"` };
    }
    const jar = this.engine.jarFor(op.id);
    if (op.op === 'set') jar.set(url, op.name, op.value, op.opts);
    else if (op.op === 'clear') jar.clear(url);
    else if (op.op === 'delete') jar.delete(url, op.name);
    else if (op.op === 'store') for (const h of op.headers) jar.setFromHeader(h, url);
    else {
      const cookies: Record<string, string[]> = {};
      for (const [k, v] of jar.cookieHeader(url)) (cookies[k] ??= []).push(v);
      return { ok: true, cookies };
    }
    return { ok: true };
  }

  private onEvent(ev: WorkerEvent): void {
    switch (ev.t) {
      case 'samples':
        this.hooks.onSamples(decodeSamples(ev.samples, this.httpSamples.expand));
        return;
      case 'log':
        this.hooks.onLog(ev.level, ev.message, ev.fields);
        return;
      case 'secret':
        this.hooks.onSecret?.(ev.value);
        return;
      case 'shared':
        if (!this.sharedArrays.has(ev.key)) this.sharedArrays.set(ev.key, ev.buffer);
        return;
      case 'jars-freed':
        for (const id of ev.ids) this.engine.forgetJar(id);
        return;
      case 'iteration':
        this.onLoopResult?.(ev.result);
        return;
      case 'ws-open':
        // The WebSocket engine (and the ws package, ~50 ms of a run's start) loads on a script's first socket.
        void import('./websocket-engine.js').then(({ hostSocket }) => hostSocket(ev));
        return;
      case 'reply': {
        const p = this.pending;
        if (!p || p.seq !== ev.seq) {
          if (ev.ok && ev.samples.metric.length > 0)
            this.hooks.onSamples(decodeSamples(ev.samples, this.httpSamples.expand));
          return;
        }
        this.pending = undefined;
        if (ev.ok && ev.samples.metric.length > 0)
          this.hooks.onSamples(decodeSamples(ev.samples, this.httpSamples.expand));
        if (ev.ok) p.resolve(ev.value);
        else
          p.reject(
            ev.kind === 'init-promise'
              ? new UncaughtInInitError(ev.error)
              : ev.kind === 'promise'
                ? new UncaughtInPromiseError(ev.error)
                : new ScriptError(ev.error),
          );
      }
    }
  }

  /**
   * The VU's isolate passed its heap limit and was lost: an iteration (or loop) ends as an
   * interrupted one, with an error line, and a fresh isolate runs the init code again for what the
   * VU does next, as after a forced interrupt; the other VUs and the run go on. Lost in init, setup,
   * teardown or handleSummary, it fails that stage as a script error does.
   */
  private outOfMemory(err: VuOutOfMemory): void {
    const p = this.pending;
    const spec = this.loopSpec;
    if (p?.cmd === 'loop' && spec) {
      this.hooks.onLog('error', err.message, {});
      // The fresh VU goes on with the loop's iterations left, to the same end, once its init is done.
      let ran = 0;
      this.killBusyIteration({ ...p, resolve: (v) => (ran = (v as { ran: number }).ran) });
      this.loopOn(spec, ran, p);
    } else if (p && (p.cmd === 'iterate' || p.cmd === 'iterate-next')) {
      this.hooks.onLog('error', err.message, {});
      this.killBusyIteration(p);
    } else this.fail(new ScriptError(err.message));
  }

  /** The rest of a loop whose VU was lost after `ran` iterations; `p` resolves with all of them. */
  private loopOn(spec: LoopSpec, ran: number, p: Pending): void {
    this.loopSpec = {
      ...spec,
      maxIterations: spec.maxIterations - ran,
      iterationInScenario: spec.iterationInScenario + ran,
    };
    this.send<{ ran: number }>({ cmd: 'loop', spec: this.loopSpec }).then(
      (rest) => p.resolve({ ran: ran + rest.ran }),
      p.reject,
    );
  }

  private fail(err: Error): void {
    this.exited = err;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(err);
  }

  private send<T>(cmd: Command): Promise<T> {
    return this.ready ? this.ready.then(() => this.sendNow<T>(cmd)) : this.sendNow<T>(cmd);
  }

  private sendNow<T>(cmd: Command): Promise<T> {
    if (this.closed) return Promise.reject(new Error(`VU ${this.id} is closed`));
    if (this.exited) return Promise.reject(this.exited);
    if (this.pending) return Promise.reject(new Error(`VU ${this.id} is busy`));
    const seq = ++this.seq;
    return new Promise<T>((resolve, reject) => {
      // A deadline left running after the command settled would hold the process at its end.
      const pending: Pending = {
        seq,
        cmd: cmd.cmd,
        resolve: (v) => {
          clearTimeout(pending.forced);
          resolve(v as T);
        },
        reject: (e) => {
          clearTimeout(pending.forced);
          reject(e);
        },
      };
      this.pending = pending;
      this.code.command({ ...cmd, seq } as WorkerCommand);
    });
  }

  scriptJarCount(): number {
    return this.engine.scriptJarCount;
  }
  async init() {
    const done = await this.send<{
      options: Record<string, unknown>;
      exports: string[];
      metrics?: { name: string; type: MetricType; contains: ValueType }[];
    }>({ cmd: 'init' });
    // k6 lets later VUs open only the files VU 0's init opened (they are all in the map by now).
    if (this.id === 0) this.sharedArrays.set(FILES_SEALED_KEY, new SharedArrayBuffer(0));
    return done;
  }
  runSetup(testOptions: Record<string, unknown>) {
    Atomics.store(this.signals, INTERRUPT, 0);
    return this.send<unknown>({ cmd: 'setup', testOptions });
  }
  iterate(fnName: string, data: unknown, ctx: IterationContext) {
    Atomics.store(this.signals, INTERRUPT, 0);
    // An arrival-rate executor sends every iteration the same function, setup data, options and
    // scenario: after the first, only the iteration's numbers are cloned to the worker. The worker
    // then also keeps its copy of the setup data, as a k6 VU unmarshals it only once.
    const s = ctx.scenario;
    const last = this.lastIterate;
    if (
      last &&
      last.fnName === fnName &&
      last.data === data &&
      last.ctx.testOptions === ctx.testOptions &&
      sameScenario(last.ctx.scenario, s)
    ) {
      const counts: IterationCounts = [
        s.iterationInTest,
        s.progress,
        ctx.iterationInScenario,
        ctx.iterationInInstance,
      ];
      return this.send<IterationResult>({ cmd: 'iterate-next', counts });
    }
    // A busy VU refuses the command, so the worker never sees it: remember only what it receives.
    if (!this.pending) this.lastIterate = { fnName, data, ctx };
    return this.send<IterationResult>({ cmd: 'iterate', fnName, data, ctx });
  }
  async loop(spec: LoopSpec, onResult: (result: IterationResult) => void) {
    Atomics.store(this.signals, INTERRUPT, 0);
    Atomics.store(this.signals, GO, 1);
    this.onLoopResult = onResult;
    this.loopCounters = new Int32Array(spec.scenarioCounters);
    this.loopSpec = spec;
    try {
      return await this.send<{ ran: number }>({ cmd: 'loop', spec });
    } finally {
      this.onLoopResult = undefined;
      this.loopSpec = undefined;
    }
  }
  stopLoop(): void {
    Atomics.store(this.signals, GO, 0);
  }
  loopSerial(): number {
    return Atomics.load(this.signals, STARTED);
  }
  runTeardown(data: unknown, testOptions: Record<string, unknown>) {
    Atomics.store(this.signals, INTERRUPT, 0);
    return this.send<void>({ cmd: 'teardown', data, testOptions });
  }
  async handleSummary(data: unknown, testOptions: Record<string, unknown>) {
    Atomics.store(this.signals, INTERRUPT, 0);
    const out = await this.send<Record<string, string | ArrayBuffer> | undefined>({
      cmd: 'summary',
      data,
      testOptions,
    });
    return out;
  }
  interrupt(): void {
    Atomics.store(this.signals, INTERRUPT, 1);
    Atomics.notify(this.signals, INTERRUPT);
    this.code.wake?.();
    this.engine.abortAll();
    this.grpc?.cancelAll();
    const p = this.pending;
    if (p?.cmd === 'loop' || p?.cmd === 'iterate' || p?.cmd === 'iterate-next') {
      clearTimeout(p.forced);
      p.forced = setTimeout(() => {
        if (this.pending === p) this.killBusyIteration(p);
      }, FORCED_INTERRUPT_MS);
    }
  }
  /** The one close in progress: a second close() waits for the same thread and agent to end. */
  private closing: Promise<void> | undefined;
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }
  private async closeNow(): Promise<void> {
    this.closed = true;
    const p = this.pending;
    this.pending = undefined;
    p?.reject(new Error(`VU ${this.id} closed`));
    await this.code.terminate(p !== undefined);
    this.grpc?.closeAll();
    if (!leftToExit()) await this.engine.close();
  }
}

export function createVu(config: VuConfig, hooks: VuHooks): Vu {
  return new HostedVu(config, hooks);
}
