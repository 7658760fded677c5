// A VU's stages on its script: init (evaluating the bundle), setup and teardown, one iteration
// (begun, run, waited for, ended with its samples and counters), handleSummary, and the words of
// their failures. Made once per VU; the functions close over its parts.
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';
import { measuredMs } from '@loadlab/k6-format/duration';
import type { MetricType, ValueType } from '../contracts.js';
import type { ModuleRegistry } from '../modules/index.js';
import type { TimerQueue } from '../modules/timers/timers.js';
import { allOf } from '../event-loop/settle.js';
import { UnhandledRejection, UnhandledRejections } from '../event-loop/unhandled-rejections.js';
import {
  InterruptSignal,
  isAbortSignal,
  epochMs,
  nowMs,
  type IterationView,
  type Phase,
  type VuRuntime,
} from '../modules/api/runtime.js';
import { formatScriptException } from '../script/errors.js';
import { INSTANCE_STATS, INTERRUPT, SUMMARY_NOT_A_MAP } from '../bridge/protocol.js';
import { mayThrowNonErrors, ThrownValues } from './thrown-values.js';
import type { LoopIterationResult } from './worker-loop.js';
import { flush, flushIfFull } from './main-thread-call.js';
import { envForScenario } from './script-globals.js';
import type { ScriptText } from './script-text.js';
import type { DeclaredMetrics } from './vu-runtime.js';
import { collectIfDue } from './collection.js';
import { waitAfterIterationMs } from './min-iteration.js';
import type { VuState } from './vu-state.js';

export interface InitResult {
  options: Record<string, unknown>;
  exports: string[];
  metrics: { name: string; type: MetricType; contains: ValueType }[];
}

/** A promise the init code left rejected and unhandled: k6 fails to load the script with it. */
export class RejectedInInit {
  constructor(readonly reason: unknown) {}
}

/** What an iteration that threw nothing passes to endIteration. */
const RETURNED = Symbol('returned');

export interface LifecycleParts {
  vu: VuState;
  rt: VuRuntime;
  text: ScriptText;
  registry: ModuleRegistry;
  timers: TimerQueue;
  declared: DeclaredMetrics;
}

export function createLifecycle({ vu, rt, text, registry, timers, declared }: LifecycleParts) {
  const init = vu.init;
  const signals = vu.signals;
  const instanceStats = vu.instanceStats;
  const source = text.source;
  /** An iteration's first unhandled rejection, where the host reports them (workers, shared isolates). */
  const rejections = new UnhandledRejections();
  const rejectionsReported = vu.transport.rejectionsReported?.bind(vu.transport);
  const reportRejectionsNow = vu.transport.reportRejectionsNow?.bind(vu.transport);
  /**
   * What an iteration waits for after its body: its timers, the work modules hold (streams,
   * sockets), and a rejection, which ends it.
   */
  const asyncWork = allOf(timers, rt.pending, rejections);
  /** What the init code leaves running: k6 waits for it before the VU is ready. */
  const initWork = allOf(timers, rt.pending);
  /** The first unhandled rejection of setup, teardown or handleSummary, while one runs. */
  let lifecycleRejection: UnhandledRejection | undefined;

  /**
   * `next`, once the host has reported the rejections left so far: at once where it can drain the
   * microtasks now, else after a turn of its event loop (from inside a microtask).
   */
  function whenRejectionsReported<T>(next: () => T | Promise<T>): T | Promise<T> {
    if (reportRejectionsNow?.() || !rejectionsReported) return next();
    return rejectionsReported().then(next);
  }

  /** Once the host reported the rejections left so far: the first of them, forgotten. */
  async function rejectionLeft(): Promise<UnhandledRejection | undefined> {
    await whenRejectionsReported(() => undefined);
    const left = lifecycleRejection;
    lifecycleRejection = undefined;
    return left;
  }

  function setPhase(p: Phase): void {
    (rt as { phase: Phase }).phase = p;
  }

  async function runInit(): Promise<InitResult> {
    setPhase('init');
    await registry.preload(init.bundle.k6Imports ?? []);
    const module = { exports: {} as Record<string, unknown> };
    const wrapper = vm.runInThisContext(text.evaluated, { filename: text.bundleName }) as (
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
    if (init.bundle.topLevelAwait) await running;
    // k6 runs the init code's event loop to its end: the init's timers fire before the VU is ready,
    // and a callback that throws fails the init as the code itself would.
    if (initWork.busy) await initWork.settle(() => Atomics.load(signals, INTERRUPT) !== 0);
    // Where the host reports unhandled rejections (a worker), once it has; a VU isolate hears of
    // none and goes on at once, without a hop to the main thread for each VU that starts.
    await whenRejectionsReported(() => undefined);
    if (vu.rejectedInInit) throw vu.rejectedInInit;
    const scriptExports = (vu.scriptExports = module.exports);
    if (mayThrowNonErrors(init.bundle.code))
      vu.thrownValues = new ThrownValues(pathToFileURL(text.bundleName).href, text.bundleName);
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
    const f = vu.scriptExports[name];
    if (typeof f !== 'function') throw new Error(`function '${name}' not found in exports`);
    return f as (...args: unknown[]) => unknown;
  }

  /** k6 closes a VU's idle connections after each iteration, setup and teardown with noVUConnectionReuse. */
  function closeIdleIfAsked(testOptions: Record<string, unknown> | undefined): void {
    if (testOptions?.noVUConnectionReuse === true) vu.closeIdlePending = true;
  }

  /** Runs a script function outside iterations (setup/teardown) with k6's `::setup` style group. */
  async function runLifecycle(
    name: 'setup' | 'teardown',
    args: unknown[],
    testOptions: Record<string, unknown>,
  ) {
    setPhase(name);
    (rt as { testOptions: unknown }).testOptions = testOptions;
    vu.scenarioName = '';
    vu.scenarioTags = {};
    rt.groupPath = `::${name}`;
    rt.metadata.outsideScenarios();
    rt.metadata.run(0);
    vu.sentBytes = 0;
    vu.receivedBytes = 0;
    lifecycleRejection = undefined;
    try {
      let value = fn(name)(...args);
      if (value && typeof (value as Promise<unknown>).then === 'function') value = await value;
      const rejected = await rejectionLeft();
      if (rejected) throw rejected;
      return value === undefined ? undefined : JSON.parse(JSON.stringify(value));
    } finally {
      emitClosingSamples(nowMs());
      flush(vu);
      closeIdleIfAsked(testOptions);
    }
  }

  /**
   * data_sent/data_received and, for a counted iteration (`duration` set), iteration_duration and
   * iterations: one compound row the main thread expands (sample-batch.ts).
   */
  function emitClosingSamples(time: number, duration?: number): void {
    vu.samples.addIteration(vu.sentBytes, vu.receivedBytes, duration, rt.baseTags(), time);
    flushIfFull(vu);
    vu.sentBytes = 0;
    vu.receivedBytes = 0;
  }

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
      // The throw is the iteration's error: a rejection it also left must not become the next one's.
      return whenRejectionsReported(() => endIteration(start, err));
    }
    if (value && typeof (value as Promise<unknown>).then === 'function') return afterBody(value, start);
    return whenRejectionsReported(() => afterTimers(start));
  }

  /**
   * Ends an async iteration once its body settles, or sooner: a promise it leaves rejected with no
   * handler, or a callback of its that throws, while the body still awaits ends it then, its timers
   * stopped, as k6's event loop ends it (the body's promise is left pending).
   */
  function afterBody(body: unknown, start: number): Promise<LoopIterationResult> {
    return new Promise((resolve, reject) => {
      let ended = false;
      const end = (next: () => LoopIterationResult | Promise<LoopIterationResult>) => {
        if (ended) return;
        ended = true;
        asyncWork.watch(undefined);
        Promise.resolve().then(next).then(resolve, reject);
      };
      asyncWork.watch(() => {
        const failure = asyncWork.takeFailure();
        if (!failure) return;
        end(() => {
          stopAsyncWork();
          return afterModules(() => endIteration(start, failure.error));
        });
      });
      Promise.resolve(body).then(
        () => end(() => afterModules(() => whenRejectionsReported(() => afterTimers(start)))),
        (err: unknown) =>
          end(() => {
            stopAsyncWork(err instanceof InterruptSignal);
            return afterModules(() => endIteration(start, err, true));
          }),
      );
    });
  }

  /** Lets modules end what the iteration opened (k6/browser's context) before the iteration ends. */
  function afterModules<T>(next: () => T | Promise<T>): T | Promise<T> {
    const ending = registry.iterationEnd();
    return ending ? ending.then(next) : next();
  }

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
    const scenario = ctx.scenario;
    vu.scenarioName = scenario.name;
    vu.scenarioTags = scenario.tags ?? {};
    envForScenario(vu, scenario);
    rt.metadata.enterScenario(rt.vuId, scenario.name);
    rt.metadata.run(vu.iterInInstance);
    rt.groupPath = '';
    vu.abortReason = undefined;
    vu.failReason = undefined;
    // k6 empties the VU's cookie jar at the start of every iteration, unless noCookiesReset; the jar
    // lives on the main thread.
    vu.jarResetPending = ctx.testOptions.noCookiesReset !== true;
    vu.sentBytes = 0;
    vu.receivedBytes = 0;
  }

  /**
   * Closes an iteration that returned (`thrown` is RETURNED) or threw (`inPromise`: an async default
   * function rejected): its samples, counters and result.
   */
  function endIteration(start: number, thrown: unknown, inPromise = false): LoopIterationResult {
    if (thrown instanceof UnhandledRejection) {
      thrown = thrown.reason;
      inPromise = true;
    }
    rejections.clear();
    let completed = true;
    let error: string | undefined;
    if (thrown !== RETURNED) {
      if (thrown instanceof InterruptSignal) completed = false;
      else if (isAbortSignal(thrown)) {
        vu.abortReason = `${thrown.logged}${abortLocation(thrown)}`;
      } else {
        // k6 logs an async default function's rejection as an uncaught promise (a value bare, no frame).
        error = inPromise
          ? uncaughtInPromise(thrown)
          : formatScriptException(thrown, source, vu.thrownValues?.stackOf(thrown));
      }
    }
    const abortReason = vu.abortReason;
    if (Atomics.load(signals, INTERRUPT) !== 0 && error === undefined && abortReason === undefined) {
      // The iteration returned, but only because sleep()/http were cut short: k6 does not count it.
      completed = false;
    }
    // One clock reading serves the duration, the samples' time and the loop's flush check: in a
    // VU's cold isolate each performance.now() is a JS wrapper and an API call (~1k instructions).
    const end = performance.now();
    vu.lastIterationEnd = end;
    closeIdleIfAsked(rt.testOptions);
    rt.groupPath = '';
    emitClosingSamples(epochMs(end), completed ? measuredMs(end - start) : undefined);
    Atomics.add(
      instanceStats,
      completed ? INSTANCE_STATS.iterationsCompleted : INSTANCE_STATS.iterationsInterrupted,
      1,
    );
    vu.iterInInstance++;
    (rt as { iteration: unknown }).iteration = undefined;
    collectIfDue(vu);
    const result: LoopIterationResult = { completed };
    if (error !== undefined) result.error = error;
    if (error !== undefined && inPromise) result.inPromise = true;
    if (abortReason !== undefined) result.abort = { reason: abortReason };
    const failReason = vu.failReason;
    if (failReason !== undefined) result.markFailed = failReason;
    if (completed && abortReason === undefined) {
      const waitMs = waitAfterIterationMs(rt.testOptions, end - start);
      if (waitMs > 0) rt.sleepMs(waitMs); // ends early at an interrupt, as k6's at its hard stop
    }
    return result;
  }

  function abortLocation(err: Error): string {
    const formatted = formatScriptException(err, source);
    const frame = formatted.split('\n')[1];
    return frame ? ` ${frame.trim()}` : '';
  }

  async function runSummary(data: unknown, testOptions: Record<string, unknown>) {
    if (typeof vu.scriptExports.handleSummary !== 'function') return undefined;
    setPhase('summary');
    (rt as { testOptions: unknown }).testOptions = testOptions;
    vu.scenarioName = '';
    vu.scenarioTags = {};
    rt.groupPath = '';
    lifecycleRejection = undefined;
    let out = fn('handleSummary')(data);
    if (out && typeof (out as Promise<unknown>).then === 'function') out = await out;
    // k6 logs it (before the summary is written) and goes on.
    const rejected = await rejectionLeft();
    if (rejected) rt.log('error', uncaughtInPromise(rejected.reason), {});
    flush(vu);
    // As k6: nothing returned is k6's own summary; anything but an object is refused (the host's line).
    if (out === undefined || out === null) return undefined;
    if (typeof out !== 'object' || Array.isArray(out)) throw new Error(SUMMARY_NOT_A_MAP);
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

  /**
   * A promise the script forgot to await must not kill the VU: in an iteration k6 logs it and goes
   * on; in init it stops the test (runInit looks once the init code has run).
   */
  function onUnhandledRejection(reason: unknown): void {
    if (rt.phase === 'init') vu.rejectedInInit ??= new RejectedInInit(reason);
    else if (rt.phase === 'iteration') rejections.report(reason);
    else lifecycleRejection ??= new UnhandledRejection(reason);
  }

  /** A failed command's error line and kind, as the reply carries them. */
  function commandFailure(
    cmd: string,
    err: unknown,
  ): { error: string; kind: 'init-promise' | 'promise' | 'script' } {
    if (err instanceof RejectedInInit)
      return { error: uncaughtInPromise(err.reason).trimEnd(), kind: 'init-promise' };
    // Setup's or teardown's: an iteration's ends the iteration instead (endIteration).
    if (err instanceof UnhandledRejection) return { error: uncaughtInPromise(err.reason), kind: 'promise' };
    const error = isAbortSignal(err)
      ? `${err.logged}${abortLocation(err)}`
      : // k6 has no location for a value thrown in init: its module evaluation rejects with the bare value.
        formatScriptException(err, source, cmd === 'init' ? undefined : vu.thrownValues?.stackOf(err));
    return { error, kind: 'script' };
  }

  return {
    runInit,
    runLifecycle,
    runIteration,
    whileActive,
    runSummary,
    onUnhandledRejection,
    commandFailure,
  };
}
