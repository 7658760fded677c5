// The VU thread: evaluates the bundled script once (init context), then runs setup, iterations,
// teardown or handleSummary on command. k6's synchronous API is kept synchronous by blocking this
// thread with Atomics.wait while the main thread does the I/O.
import { SourceMap } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { format } from 'node:util';
import vm from 'node:vm';
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import type { MetricType, ValueType } from '../types.js';
import { BUILTIN_METRICS } from '../metrics/builtin.js';
import { ModuleRegistry } from '../modules/index.js';
import type { InstanceCounters } from '../modules/execution/execution.js';
import { TimerQueue } from '../modules/timers/timers.js';
import { installWebCryptoCompatLazily } from '../modules/webcrypto/webcrypto.js';
import { PendingWork } from '../event-loop/pending-work.js';
import { allOf } from '../event-loop/settle.js';
import { useProtoLoaderAt } from '../modules/grpc/grpc-descriptors.js';
import type { GrpcAnswer, GrpcEvent } from '../bridge/grpc-protocol.js';
import { sharedTexts, textsOf } from '../modules/data/shared-texts.js';
import { sharedArrayKey } from '../bridge/shared-keys.js';
import { InitFiles } from './init-files.js';
import { goError } from '../modules/api/go-error.js';
import { goQuote } from '@loadlab/k6-format/go-quote';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import {
  AbortSignal,
  InterruptSignal,
  isAbortSignal,
  epochMs,
  nowMs,
  type InitFile,
  type IterationView,
  type Phase,
  type VuRuntime,
} from '../modules/api/runtime.js';
import { callingFile, formatScriptException, type ScriptSource } from '../script/errors.js';
import { mayThrowNonErrors, ThrownValues } from './thrown-values.js';
import {
  INSTANCE_STATS,
  INSTANCE_STATS_SLOTS,
  INTERRUPT,
  SIGNAL,
  type BridgeCall,
  type JarAnswer,
  type JarOp,
  Res,
  type HttpCall,
  type RequestTuple,
  type ResponseTuple,
  type WorkerCommand,
  type WorkerEvent,
} from '../bridge/protocol.js';
import { iterationView, runLoop, type LoopIterationResult } from './worker-loop.js';
import { SampleBatcher } from '../bridge/sample-batch.js';
import { filterSystemTags } from '../bridge/system-tags.js';
import { REMOTE_NAMESPACE } from '../script/remote-modules.js';
import type { VuThreadStart, WorkerInit } from './worker-init.js';

/**
 * The VU's configuration. The thread was started ahead of its VU, and every module above is
 * evaluated by now: it waits here until a VU takes it (see host/vu-threads.ts).
 */
function vuInit(): WorkerInit {
  const start = workerData as VuThreadStart;
  const wake = new Int32Array(start.wake);
  for (;;) {
    Atomics.wait(wake, 0, 0);
    const msg = receiveMessageOnPort(start.configPort);
    if (msg) {
      start.configPort.close();
      return msg.message as WorkerInit;
    }
  }
}
const init = vuInit();
useProtoLoaderAt(init.protoLoaderPath);
const port = parentPort!;
const signals = new Int32Array(init.signals);
const bundleName = path.join(init.bundle.scriptDir, '__loadlab_bundle.js');
/** How esbuild names a fetched module in the source map: namespace, colon, URL. */
const REMOTE_SOURCE = `${REMOTE_NAMESPACE}:`;
/** Parsed on the first error that needs it: every VU parsing it at start cost its init for nothing. */
let sourceMap: SourceMap | undefined;
function scriptSourceMap(): SourceMap | undefined {
  if (sourceMap === undefined && init.bundle.sourceMap)
    sourceMap = new SourceMap(fixSources(JSON.parse(init.bundle.sourceMap)));
  return sourceMap;
}
const tla = init.bundle.topLevelAwait;
// Wrapped on the bundle's first line so stack line numbers stay the bundle's own. The timer
// parameters stand in for Node's globals in the script's code only (the runner's own code, such
// as playwright in k6/browser, keeps Node's timers). Strict, as the ES module k6 runs is: the
// CommonJS bundle lost that, and a write to a frozen object passed silently instead of throwing.
// A script with top-level await is an async function's body, awaited in init as k6's init waits.
const evaluated = `(${tla ? 'async ' : ''}function (exports, require, module, setTimeout, clearTimeout, setInterval, clearInterval) {"use strict";${tla?.prelude ?? ''}${init.bundle.code}\n})`;
const inputFiles = new Set((init.bundle.inputs?.files ?? []).map((f) => pathToFileURL(f).href));
// Split once per VU, on the first error with a caller frame, not on every error a script throws.
let evaluatedLines: readonly string[] | undefined;
const source: ScriptSource = {
  bundleName,
  evaluatedLines: () => (evaluatedLines ??= evaluated.split('\n')),
  get map() {
    return scriptSourceMap();
  },
  mappedByK6: (file) =>
    file.startsWith('file://') &&
    (/\.[cm]?tsx?$/.test(file) || (inputFiles.size > 0 && !inputFiles.has(file))),
  literalDefaultNames: new Set(init.bundle.inputs?.defaultNames ?? []),
};
/**
 * Where a thrown non-Error value came from, for a script that may throw one. Opened after init:
 * k6 prints no frame for a value thrown there, and the init code compiles faster without a debugger.
 */
let thrownValues: ThrownValues | undefined;
const enabledSystemTags = init.systemTags ? new Set(init.systemTags) : undefined;

/** esbuild writes sources relative to the bundle; k6 prints absolute file:// paths (and remote modules' URLs). */
function fixSources(map: { sources: string[] }): never {
  map.sources = map.sources.map((s) =>
    s.startsWith(REMOTE_SOURCE)
      ? s.slice(REMOTE_SOURCE.length)
      : `file://${path.resolve(init.bundle.scriptDir, s)}`,
  );
  return map as never;
}

/** True from the start of an iteration until the next call to the main thread, which then empties the jar. */
let jarResetPending = false;

/** Posts to the main thread and blocks this thread until its answer is on the port. */
function bridge(message: BridgeCall): unknown {
  if (Array.isArray(message)) message[0] = jarResetPending;
  else message.resetJar = jarResetPending;
  jarResetPending = false;
  Atomics.store(signals, SIGNAL, 0);
  init.httpPort.postMessage(message);
  for (;;) {
    Atomics.wait(signals, SIGNAL, 0);
    const msg = receiveMessageOnPort(init.httpPort);
    if (msg) return msg.message;
  }
}

const buffer = new SampleBatcher();
let lastFlush = performance.now();
/** performance.now() at the end of the last iteration. */
let lastIterationEnd = lastFlush;
function flush(): void {
  lastFlush = performance.now();
  if (buffer.length === 0) return;
  post({ t: 'samples', samples: buffer.take() });
}

/** Drops the system tags options.systemTags leaves out, in place (every tag set passed here is fresh). */
function withSystemTagsFiltered(tags: Record<string, string>): Record<string, string> {
  return filterSystemTags(tags, enabledSystemTags);
}

/** What rt.baseTags() was last built from, and the result. */
let baseTagsFor = { group: '', scenarioName: '', scenarioTags: {}, vuTagsVersion: -1 };
let baseTagSet: Record<string, string> = {};
let vuTagsVersion = 0;

function flushIfFull(): void {
  if (buffer.length >= 512) flush();
}
function post(ev: WorkerEvent): void {
  port.postMessage(ev);
}

const declared = new Map<string, { type: MetricType; contains: ValueType }>();
const instanceStats = new Int32Array(init.instanceStats ?? new SharedArrayBuffer(4 * INSTANCE_STATS_SLOTS));
if (!init.instanceStats) instanceStats[INSTANCE_STATS.vusInitialized] = 1;
const counters: InstanceCounters = {
  startedAt: Date.now(),
  get iterationsCompleted() {
    return Atomics.load(instanceStats, INSTANCE_STATS.iterationsCompleted);
  },
  get iterationsInterrupted() {
    return Atomics.load(instanceStats, INSTANCE_STATS.iterationsInterrupted);
  },
  get vusActive() {
    return Atomics.load(instanceStats, INSTANCE_STATS.vusActive);
  },
  get vusInitialized() {
    return Atomics.load(instanceStats, INSTANCE_STATS.vusInitialized);
  },
};
let sentBytes = 0;
let receivedBytes = 0;
let abortReason: string | undefined;
let failReason: string | undefined;
let scenarioName = '';
let scenarioTags: Record<string, string> = {};

const rt: VuRuntime = {
  vuId: init.vuId,
  env: init.env,
  scriptDir: init.bundle.scriptDir,
  secretSources: init.secretSources ?? {},
  revealSecret(value) {
    post({ t: 'secret', value });
  },
  sharedArrays: {
    get: (name) => {
      const buffer = init.sharedArrays?.[sharedArrayKey(name)];
      return buffer && textsOf(buffer);
    },
    publish(name, items) {
      const buffer = sharedTexts(items);
      post({ t: 'shared', key: sharedArrayKey(name), buffer });
      return textsOf(buffer);
    },
  },
  phase: 'init' as Phase,
  iteration: undefined as IterationView | undefined,
  testOptions: undefined as Record<string, unknown> | undefined,
  groupPath: '',
  vuTags: {},
  responseCallback: null,
  currentTags() {
    const tags: Record<string, string> = { ...init.runTags, ...scenarioTags, ...this.vuTags };
    if (scenarioName) tags.scenario = scenarioName;
    tags.group = this.groupPath;
    return tags;
  },
  baseTags() {
    const f = baseTagsFor;
    if (
      f.group !== this.groupPath ||
      f.scenarioName !== scenarioName ||
      f.scenarioTags !== scenarioTags ||
      f.vuTagsVersion !== vuTagsVersion
    ) {
      baseTagsFor = { group: this.groupPath, scenarioName, scenarioTags, vuTagsVersion };
      baseTagSet = withSystemTagsFiltered(this.currentTags());
    }
    return baseTagSet;
  },
  vuTagsChanged() {
    vuTagsVersion++;
  },
  emit(sample) {
    this.record(sample.metric, sample.type, sample.contains, sample.value, sample.tags, sample.time);
  },
  record(metric, type, contains, value, tags, time) {
    buffer.add(metric, type, contains, value, withSystemTagsFiltered(tags), time);
    flushIfFull();
  },
  recordHttp(requestId) {
    buffer.addHttp(requestId, this.baseTags());
    flushIfFull();
  },
  httpSync(reqs: RequestTuple[]): ResponseTuple[] {
    // Samples wait for the end of the iteration (or a full buffer, or a sleep): one message per
    // iteration instead of one per request keeps the main thread free for the network.
    const call: HttpCall = [false];
    for (let i = 0; i < reqs.length; i++) call.push(reqs[i]!);
    const answers = bridge(call) as ResponseTuple[];
    for (let i = 0; i < answers.length; i++) {
      sentBytes += answers[i]![Res.sent];
      receivedBytes += answers[i]![Res.received];
    }
    return answers;
  },
  jarSync(op: JarOp): JarAnswer {
    return bridge({ jar: op, resetJar: false }) as JarAnswer;
  },
  grpcSync(op) {
    const answer = bridge({ grpc: op, resetJar: false }) as GrpcAnswer;
    rt.countTraffic(answer.sent, answer.received);
    return answer;
  },
  grpcPost(op) {
    init.httpPort.postMessage({ grpcAsync: op });
  },
  onGrpcEvent: undefined,
  countTraffic(sent, received) {
    sentBytes += sent;
    receivedBytes += received;
  },
  pending: new PendingWork(),
  sleepMs(ms) {
    flush();
    const end = performance.now() + ms;
    for (let left = ms; left > 0; left = end - performance.now()) {
      if (Atomics.wait(signals, INTERRUPT, 0, left) === 'not-equal') return;
    }
  },
  checkInterrupted() {
    if (Atomics.load(signals, INTERRUPT) !== 0) throw new InterruptSignal();
  },
  log(level, message, fields) {
    post(fields ? { t: 'log', level, message, fields } : { t: 'log', level, message });
  },
  declareMetric(name, type, contains) {
    const builtin = BUILTIN_METRICS[name];
    const prev = declared.get(name) ?? builtin;
    if (prev && prev.type !== type) {
      throw new Error(`metric '${name}' already exists but with type ${prev.type}, instead of ${type}`);
    }
    declared.set(name, { type, contains });
  },
  abortTest(reason) {
    throw new AbortSignal(reason);
  },
  markFailed(reason) {
    failReason = reason;
  },
  readFile(p, binary) {
    if (rt.phase !== 'init') throw new Error('open() can be used only in the init context');
    const abs = path.resolve(init.bundle.scriptDir, p);
    const file = initFiles.read(abs);
    if (file.bytes) {
      // Each VU gets its own string, and its own ArrayBuffer, which the script may write into.
      const bytes = file.bytes;
      return binary
        ? new Uint8Array(bytes).buffer
        : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    }
    throw openError(abs, file);
  },
  initFile: (absPath) => initFiles.read(absPath),
  forgetJar(id) {
    // Every jar V8 reports in this turn goes in one message.
    if (freedJars.length === 0) setImmediate(postFreedJars);
    freedJars.push(id);
  },
  awaitingCollection(delta) {
    awaitingCollection += delta;
  },
};

let freedJars: number[] = [];
function postFreedJars(): void {
  post({ t: 'jars-freed', ids: freedJars });
  rt.awaitingCollection(-freedJars.length);
  freedJars = [];
}
/** Objects made whose collection the main thread has not been told of yet (rt.awaitingCollection). */
let awaitingCollection = 0;
/** How often a looping VU with such objects lets its event loop run (a turn costs a few µs). */
const COLLECTION_TURN_MS = 1000;
let lastCollectionTurn = performance.now();
function eventLoopTurnDue(): Promise<void> | undefined {
  if (awaitingCollection === 0 || lastIterationEnd - lastCollectionTurn < COLLECTION_TURN_MS)
    return undefined;
  lastCollectionTurn = lastIterationEnd;
  return new Promise((resolve) => setImmediate(resolve));
}

const initFiles = new InitFiles(init.sharedArrays ?? {}, (key, buffer) => post({ t: 'shared', key, buffer }));

/** open()'s errors in k6's words, with the Go function k6 names above the script's frames. */
function openError(abs: string, file: Exclude<InitFile, { bytes: Uint8Array }>): Error {
  let message: string;
  switch (file.failure) {
    case 'never-opened':
      message = `open() can't be used with files that weren't previously opened during initialization (__VU==0), path: ${goQuote(abs)}`;
      break;
    case 'directory':
      message = `open() can't be used with directories, path: ${goQuote(abs)}`;
      break;
    case 'missing':
      message = `stat ${abs}: no such file or directory`;
      break;
    case 'unreadable':
      message = goPathError('open', abs, file.error);
  }
  return Object.defineProperty(goError(message), 'goFrame', {
    value: 'go.k6.io/k6/internal/js.(*Bundle).setInitGlobals.func3',
  });
}

// Events of the script's gRPC streams and async calls, run by this thread's event loop.
init.eventPort.on('message', (event: GrpcEvent) => rt.onGrpcEvent?.(event));
init.eventPort.unref();

// The script's timers (k6/timers and its globals): an iteration waits for them before it ends.
const timers = new TimerQueue((message) => rt.log('warn', message, {})); // k6 tags it with no source

const registry = new ModuleRegistry(
  rt,
  counters,
  init.browserModuleUrl,
  init.tsxApiUrl,
  {
    vuId: init.vuId,
    env: init.env,
    currentTags: () => rt.currentTags(),
    emit: (samples) => {
      for (const s of samples) rt.emit({ ...s, tags: { ...s.tags } });
    },
  },
  timers.api,
);

function setPhase(p: Phase): void {
  (rt as { phase: Phase }).phase = p;
}

// Script globals: __ENV, __VU, __ITER, open(), console -> hooks.onLog, `global` (k6 extended mode).
let iterInInstance = 0;
Object.defineProperty(globalThis, '__ENV', { value: init.env, writable: true, configurable: true });
Object.defineProperty(globalThis, '__VU', { get: () => init.vuId, configurable: true });
Object.defineProperty(globalThis, '__ITER', { get: () => iterInInstance, configurable: true });
Object.defineProperty(globalThis, 'global', { value: globalThis, writable: true, configurable: true });
installWebCryptoCompatLazily(globalThis);
(globalThis as Record<string, unknown>).open = (p: unknown, mode?: unknown) =>
  // As k6: the file scheme's prefix dropped, a relative path the calling module's.
  rt.readFile(fromCallingModule(String(p).replace(/^file:\/\//, '')), mode === 'b');
/**
 * A relative open() path against the file of the module that calls open(), as k6 resolves it. Only
 * a file esbuild read counts: a frame mapped further, into the sources of a prebuilt bundle's own
 * map, ran in that bundle, which k6 resolves against (the script's folder when it is the script).
 */
function fromCallingModule(p: string): string {
  if (path.isAbsolute(p)) return p;
  const file = callingFile(new Error().stack ?? '', source);
  return file !== undefined && inputFiles.has(file) ? path.resolve(path.dirname(fileURLToPath(file)), p) : p;
}
function formatLog(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (a && typeof a === 'object') {
        try {
          return JSON.stringify(a);
        } catch {
          return format('%o', a);
        }
      }
      return String(a);
    })
    .join(' ');
}
/** console.* lines, as k6's console logger tags them. */
const CONSOLE = { source: 'console' };
const scriptConsole = {
  log: (...a: unknown[]) => rt.log('info', formatLog(a), CONSOLE),
  info: (...a: unknown[]) => rt.log('info', formatLog(a), CONSOLE),
  warn: (...a: unknown[]) => rt.log('warn', formatLog(a), CONSOLE),
  error: (...a: unknown[]) => rt.log('error', formatLog(a), CONSOLE),
  debug: (...a: unknown[]) => rt.log('debug', formatLog(a), CONSOLE),
};
Object.defineProperty(globalThis, 'console', { value: scriptConsole, writable: true, configurable: true });

let scriptExports: Record<string, unknown> = {};

async function runInit(): Promise<{
  options: Record<string, unknown>;
  exports: string[];
  metrics: { name: string; type: MetricType; contains: ValueType }[];
}> {
  setPhase('init');
  await registry.preload(init.bundle.k6Imports ?? []);
  const module = { exports: {} as Record<string, unknown> };
  const wrapper = vm.runInThisContext(evaluated, { filename: bundleName }) as (
    e: unknown,
    r: (n: string) => unknown,
    m: unknown,
    ...t: unknown[]
  ) => unknown;
  const { setTimeout, clearTimeout, setInterval, clearInterval } = timers.api;
  const running = wrapper(
    module.exports,
    (n) => registry.require(n),
    module,
    setTimeout,
    clearTimeout,
    setInterval,
    clearInterval,
  );
  if (tla) await running;
  // Node reports an unhandled rejection once the microtasks have run: look after one turn.
  await new Promise((resolve) => setImmediate(resolve));
  if (rejectedInInit) throw rejectedInInit;
  scriptExports = module.exports;
  if (mayThrowNonErrors(init.bundle.code))
    thrownValues = new ThrownValues(pathToFileURL(bundleName).href, bundleName);
  const options =
    scriptExports.options === undefined ? {} : JSON.parse(JSON.stringify(scriptExports.options));
  return {
    options,
    exports: Object.keys(scriptExports).filter((k) => k !== '__esModule'),
    // Custom metrics declared in init, so thresholds on unknown metrics are refused before the test (k6: exit 104).
    metrics: [...declared].map(([name, m]) => ({ name, ...m })),
  };
}

function fn(name: string): (...args: unknown[]) => unknown {
  const f = scriptExports[name];
  if (typeof f !== 'function') throw new Error(`function '${name}' not found in exports`);
  return f as (...args: unknown[]) => unknown;
}

/** Runs a script function outside iterations (setup/teardown) with k6's `::setup` style group. */
async function runLifecycle(
  name: 'setup' | 'teardown',
  args: unknown[],
  testOptions: Record<string, unknown>,
) {
  setPhase(name);
  (rt as { testOptions: unknown }).testOptions = testOptions;
  scenarioName = '';
  scenarioTags = {};
  rt.groupPath = `::${name}`;
  sentBytes = 0;
  receivedBytes = 0;
  try {
    let value = fn(name)(...args);
    if (value && typeof (value as Promise<unknown>).then === 'function') value = await value;
    return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
  } finally {
    emitClosingSamples(nowMs());
    flush();
  }
}

/**
 * data_sent/data_received and, for a counted iteration (`duration` set), iteration_duration and
 * iterations: one compound row the main thread expands (sample-batch.ts).
 */
function emitClosingSamples(time: number, duration?: number): void {
  buffer.addIteration(sentBytes, receivedBytes, duration, rt.baseTags(), time);
  flushIfFull();
  sentBytes = 0;
  receivedBytes = 0;
}

/** The scenario __ENV was last built for. */
let envScenario: string | undefined;

/** What an iteration that threw nothing passes to endIteration. */
const RETURNED = Symbol('returned');

/**
 * Runs one iteration. A plain (synchronous) default function's iteration ends without a promise:
 * an await per iteration was a promise pair and a microtask turn in every VU's loop. Async default
 * functions (k6/browser) are awaited.
 */
function runIteration(
  fnName: string,
  data: unknown,
  ctx: IterationView,
): LoopIterationResult | Promise<LoopIterationResult> {
  beginIteration(ctx);
  const start = performance.now();
  let value: unknown;
  try {
    rt.checkInterrupted();
    value = fn(fnName)(data);
  } catch (err) {
    stopAsyncWork(err instanceof InterruptSignal);
    return endIteration(start, err);
  }
  if (value && typeof (value as Promise<unknown>).then === 'function') {
    return Promise.resolve(value).then(
      () => afterModules(() => afterTimers(start)),
      (err: unknown) => {
        stopAsyncWork(err instanceof InterruptSignal);
        return afterModules(() => endIteration(start, err, true));
      },
    );
  }
  return asyncWork.busy ? afterTimers(start) : endIteration(start, RETURNED);
}

/** Lets modules end what the iteration opened (k6/browser's context) before the iteration ends. */
function afterModules<T>(next: () => T | Promise<T>): T | Promise<T> {
  const ending = registry.iterationEnd();
  return ending ? ending.then(next) : next();
}

/** What an iteration waits for after its body: its timers and the work modules hold (streams, sockets). */
const asyncWork = allOf(timers, rt.pending);

function stopAsyncWork(interrupted = false): void {
  asyncWork.stopAll(interrupted);
}

/**
 * Ends an iteration whose body returned once its timers and other asynchronous work are done (or a
 * callback threw, or it was interrupted).
 */
function afterTimers(start: number): LoopIterationResult | Promise<LoopIterationResult> {
  if (!asyncWork.busy) return endIteration(start, RETURNED);
  return asyncWork
    .settle(() => Atomics.load(signals, INTERRUPT) !== 0)
    .then(
      (how) => endIteration(start, how === 'interrupted' ? new InterruptSignal() : RETURNED),
      (err: unknown) => {
        stopAsyncWork();
        return endIteration(start, err);
      },
    );
}

/**
 * Counts this VU in exec.instance.vusActive while an executor has it: for a looping executor the
 * whole loop, for an arrival-rate one each iteration, as k6 activates and returns its VUs.
 */
async function whileActive<T>(work: () => T | Promise<T>): Promise<T> {
  Atomics.add(instanceStats, INSTANCE_STATS.vusActive, 1);
  try {
    return await work();
  } finally {
    Atomics.sub(instanceStats, INSTANCE_STATS.vusActive, 1);
  }
}

function beginIteration(ctx: IterationView): void {
  setPhase('iteration');
  (rt as { iteration: unknown }).iteration = ctx;
  (rt as { testOptions: unknown }).testOptions = ctx.testOptions;
  scenarioName = ctx.scenario.name;
  scenarioTags = ctx.scenario.tags ?? {};
  // Scenario env entries are visible through __ENV for this scenario's iterations. k6 builds
  // __ENV when a VU is activated for a scenario, not per iteration (a script's writes to it last
  // for the scenario), and copying the whole process env every iteration showed in profiles.
  if (envScenario !== ctx.scenario.name) {
    envScenario = ctx.scenario.name;
    (globalThis as Record<string, unknown>).__ENV = { ...init.env, ...(ctx.scenario.env ?? {}) };
  }
  rt.groupPath = '';
  abortReason = undefined;
  failReason = undefined;
  // k6 empties the VU's cookie jar at the start of every iteration; the jar lives on the main thread.
  jarResetPending = true;
  sentBytes = 0;
  receivedBytes = 0;
}

/**
 * Closes an iteration that returned (`thrown` is RETURNED) or threw (`inPromise`: an async default
 * function rejected): its samples, counters and result.
 */
function endIteration(start: number, thrown: unknown, inPromise = false): LoopIterationResult {
  let completed = true;
  let error: string | undefined;
  if (thrown !== RETURNED) {
    if (thrown instanceof InterruptSignal) completed = false;
    else if (isAbortSignal(thrown)) {
      abortReason = `${thrown.logged}${abortLocation(thrown)}`;
    } else {
      // k6 logs an async default function's rejection as an uncaught promise (a value bare, no frame).
      error = inPromise
        ? uncaughtInPromise(thrown)
        : formatScriptException(thrown, source, thrownValues?.stackOf(thrown));
    }
  }
  if (Atomics.load(signals, INTERRUPT) !== 0 && error === undefined && abortReason === undefined) {
    // The iteration returned, but only because sleep()/http were cut short: k6 does not count it.
    completed = false;
  }
  // One clock reading serves the duration, the samples' time and the loop's flush check: in a
  // VU's cold isolate each performance.now() is a JS wrapper and an API call (~1k instructions).
  const end = performance.now();
  lastIterationEnd = end;
  rt.groupPath = '';
  emitClosingSamples(epochMs(end), completed ? end - start : undefined);
  Atomics.add(
    instanceStats,
    completed ? INSTANCE_STATS.iterationsCompleted : INSTANCE_STATS.iterationsInterrupted,
    1,
  );
  iterInInstance++;
  (rt as { iteration: unknown }).iteration = undefined;
  const result: LoopIterationResult = { completed };
  if (error !== undefined) result.error = error;
  if (error !== undefined && inPromise) result.inPromise = true;
  if (abortReason !== undefined) result.abort = { reason: abortReason };
  if (failReason !== undefined) result.markFailed = failReason;
  return result;
}

function abortLocation(err: Error): string {
  const formatted = formatScriptException(err, source);
  const frame = formatted.split('\n')[1];
  return frame ? ` ${frame.trim()}` : '';
}

async function runSummary(data: unknown) {
  if (typeof scriptExports.handleSummary !== 'function') return undefined;
  setPhase('summary');
  scenarioName = '';
  scenarioTags = {};
  rt.groupPath = '';
  let out = fn('handleSummary')(data);
  if (out && typeof (out as Promise<unknown>).then === 'function') out = await out;
  flush();
  if (out === undefined || out === null) return {};
  if (typeof out !== 'object') throw new Error('handleSummary() must return an object');
  const res: Record<string, string | ArrayBuffer> = {};
  for (const [k, v] of Object.entries(out as Record<string, unknown>)) {
    if (v instanceof ArrayBuffer) res[k] = v;
    else if (ArrayBuffer.isView(v))
      res[k] = v.buffer.slice(v.byteOffset, v.byteOffset + v.byteLength) as ArrayBuffer;
    else res[k] = typeof v === 'string' ? v : JSON.stringify(v);
  }
  return res;
}

/** k6's line for a rejected promise nobody handled. */
function uncaughtInPromise(reason: unknown): string {
  return `Uncaught (in promise) ${reason instanceof Error ? formatScriptException(reason, source) : String(reason)}`;
}

/** A promise the init code left rejected and unhandled: k6 fails to load the script with it. */
class RejectedInInit {
  constructor(readonly reason: unknown) {}
}
let rejectedInInit: RejectedInInit | undefined;

// A promise the script forgot to await must not kill the VU: in an iteration k6 logs it and goes on;
// in init it stops the test (runInit looks once the init code has run).
process.on('unhandledRejection', (reason) => {
  if (rt.phase === 'init') rejectedInInit ??= new RejectedInInit(reason);
  else rt.log('error', uncaughtInPromise(reason).trimEnd());
});

/** The last full 'iterate' command: what 'iterate-next' reuses. */
let lastIterate: { fnName: string; data: unknown; ctx: IterationView } | undefined;

// Commands run one at a time: the main thread never sends a new one before the reply.
port.on('message', (msg: WorkerCommand) => {
  void handle(msg);
});

async function handle(msg: WorkerCommand): Promise<void> {
  try {
    let value: unknown;
    switch (msg.cmd) {
      case 'init':
        value = await runInit();
        break;
      case 'setup':
        value =
          typeof scriptExports.setup === 'function'
            ? await runLifecycle('setup', [], msg.testOptions)
            : undefined;
        break;
      case 'iterate': {
        lastIterate = { fnName: msg.fnName, data: msg.data, ctx: msg.ctx as IterationView };
        const { fnName, data, ctx } = lastIterate;
        value = await whileActive(() => runIteration(fnName, data, ctx));
        break;
      }
      case 'iterate-next': {
        if (!lastIterate) throw new Error('iterate-next before any iterate');
        const { fnName, data, ctx: base } = lastIterate;
        const ctx = iterationView(base.scenario, msg.counts, base.testOptions);
        value = await whileActive(() => runIteration(fnName, data, ctx));
        break;
      }
      case 'loop':
        value = await whileActive(() =>
          runLoop(msg.spec, signals, {
            runIteration,
            report: (result) => post({ t: 'iteration', result }),
            flushIfOlderThan: (ms) => {
              if (lastIterationEnd - lastFlush >= ms) flush();
            },
            eventLoopTurnDue,
          }),
        );
        break;
      case 'teardown':
        if (typeof scriptExports.teardown === 'function')
          await runLifecycle('teardown', [msg.data], msg.testOptions);
        break;
      case 'summary':
        value = await runSummary(msg.data);
        break;
    }
    // The samples ride on the reply: one message per iteration in the common case.
    post({ t: 'reply', seq: msg.seq, ok: true, value, samples: buffer.take() });
  } catch (err) {
    flush();
    if (err instanceof RejectedInInit) {
      post({
        t: 'reply',
        seq: msg.seq,
        ok: false,
        error: uncaughtInPromise(err.reason).trimEnd(),
        kind: 'init-promise',
      });
      return;
    }
    const message = isAbortSignal(err)
      ? `${err.logged}${abortLocation(err)}`
      : // k6 has no location for a value thrown in init: its module evaluation rejects with the bare value.
        formatScriptException(err, source, msg.cmd === 'init' ? undefined : thrownValues?.stackOf(err));
    post({ t: 'reply', seq: msg.seq, ok: false, error: message, kind: 'script' });
  }
}
