// A looping VU (constant-vus, ramping-vus, shared-iterations, per-vu-iterations): the worker runs
// its iterations back to back and asks the main thread for nothing but HTTP. The executor steers it
// through shared memory (GO flag, scenario counters) instead of one command and one reply per
// iteration, which halves the thread hand-offs of a `http.get` iteration (see README.md).
import type { IterationView } from '../bridge/iteration-view.js';
import {
  GO,
  INTERRUPT,
  LOOP_RAN,
  SC_COMPLETED,
  SC_INTERRUPTED,
  SC_LEFT,
  SC_STARTED,
  STARTED,
  type IterationCounts,
  type LoopSpec,
} from '../bridge/protocol.js';

export interface LoopIterationResult {
  completed: boolean;
  error?: string;
  inPromise?: true;
  abort?: { reason: string };
  markFailed?: string;
}

export interface LoopDeps {
  /** A promise only for an async default function (see lifecycle.ts). */
  runIteration(
    fnName: string,
    data: unknown,
    ctx: IterationView,
  ): LoopIterationResult | Promise<LoopIterationResult>;
  /** Hands an iteration's error, abort or test.fail to the main thread (they are logged there). */
  report(result: LoopIterationResult): void;
  /** Sends the buffered samples when the last batch left at least ms ago. */
  flushIfOlderThan(ms: number): void;
  /**
   * A promise when the event loop should run before the next iteration: V8 reports collected
   * objects (script cookie jars, whose main-thread side is then dropped) only in a turn of it.
   */
  eventLoopTurnDue(): Promise<void> | undefined;
}

/** Samples of a loop reach the main thread at least this often (thresholds are evaluated every 2 s). */
const SAMPLE_BATCH_MS = 100;

/** Runs iterations while the executor allows them; resolves with how many were started. */
export async function runLoop(spec: LoopSpec, signals: Int32Array, deps: LoopDeps): Promise<{ ran: number }> {
  const counters = new Int32Array(spec.scenarioCounters);
  const instance = new Int32Array(spec.instanceCounter);
  let ran = 0;
  // One view for the whole loop, its numbers set for each iteration: two objects and a dozen
  // property definitions fewer per iteration in a cold isolate. Nothing keeps an iteration's view
  // past its end (rt.iteration is cleared; k6/execution reads it when asked).
  const ctx = iterationView(spec.scenario, [0, 0, 0, 0], spec.testOptions);
  Atomics.store(signals, LOOP_RAN, 0);
  for (;;) {
    // Counted before GO is read: a ramp-down that clears GO and then reads STARTED can never miss
    // an iteration that is about to start (its delayed interrupt must hit that iteration).
    Atomics.add(signals, STARTED, 1);
    if (Atomics.load(signals, GO) !== 1 || Atomics.load(signals, INTERRUPT) !== 0) break;
    if (ran >= spec.maxIterations || Date.now() >= spec.endAt) break;
    if (spec.sharedBudget && Atomics.sub(counters, SC_LEFT, 1) <= 0) break;
    ctx.scenario.iterationInTest = Atomics.add(counters, SC_STARTED, 1);
    ctx.scenario.progress = progress(spec, counters);
    ctx.iterationInScenario = spec.iterationInScenario + ran;
    ctx.iterationInInstance = Atomics.add(instance, 0, 1);
    ran += 1;
    Atomics.store(signals, LOOP_RAN, ran);
    const pending = deps.runIteration(spec.fnName, spec.data, ctx);
    const result = pending instanceof Promise ? await pending : pending;
    Atomics.add(counters, result.completed ? SC_COMPLETED : SC_INTERRUPTED, 1);
    if (result.error !== undefined || result.abort || result.markFailed !== undefined) deps.report(result);
    if (result.abort) break;
    deps.flushIfOlderThan(SAMPLE_BATCH_MS);
    const turn = deps.eventLoopTurnDue();
    if (turn) await turn;
  }
  return { ran };
}

/**
 * One iteration's view of its scenario: the scenario's fields named one by one, not spread. The
 * scenario arrives by structured clone, and a spread copy of it plus two added keys took V8's slow
 * define path on every iteration (perf: ~4 % of a VU thread's CPU, and a load-IC miss per read of it).
 */
export function iterationView(
  scenario: LoopSpec['scenario'],
  [iterationInTest, progress, iterationInScenario, iterationInInstance]: IterationCounts,
  testOptions: Record<string, unknown>,
): IterationView {
  // Two literals, not one nested: a nested literal is copied from its boilerplate the slow way.
  const view = {
    name: scenario.name,
    executor: scenario.executor,
    startTime: scenario.startTime,
    iterationInTest,
    progress,
    env: scenario.env,
    tags: scenario.tags,
    exec: scenario.exec,
  };
  return { scenario: view, iterationInScenario, iterationInInstance, testOptions };
}

function progress(spec: LoopSpec, counters: Int32Array): number {
  if ('durationMs' in spec.progress)
    return Math.min(1, (Date.now() - spec.scenario.startTime) / spec.progress.durationMs);
  return Math.min(1, Atomics.load(counters, SC_COMPLETED) / spec.progress.totalIterations);
}
