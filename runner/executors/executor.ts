// What an executor is to the runner (k6 lib/executor: each one's config, validation, description,
// progress and run loop), and the scenario configuration every executor reads its fields from.
import { formatDuration } from '@loadlab/k6-format/duration';
import { fixedDuration } from './fixed-width.js';

export type ExecutorName =
  | 'shared-iterations'
  | 'per-vu-iterations'
  | 'constant-vus'
  | 'ramping-vus'
  | 'constant-arrival-rate'
  | 'ramping-arrival-rate';

export interface StageMs {
  durationMs: number;
  target: number;
}

export interface ScenarioConfig {
  name: string;
  executor: ExecutorName;
  exec: string;
  startTimeMs: number;
  gracefulStopMs: number;
  env: Record<string, string>;
  tags: Record<string, string>;
  /** shared/per-vu iterations and constant-vus */
  vus: number;
  iterations: number;
  maxDurationMs: number;
  durationMs: number;
  /** ramping-vus */
  startVUs: number;
  stages: StageMs[];
  gracefulRampDownMs: number;
  /** arrival-rate */
  rate: number;
  startRate: number;
  timeUnitMs: number;
  preAllocatedVUs: number;
  maxVUs: number;
  /** For the banner: was `exec` set explicitly. */
  execExplicit: boolean;
}

/** What a scenario's bar is drawn from at one moment. */
export interface ScenarioSnapshot {
  config: ScenarioConfig;
  /** Epoch ms, 0 before the executor starts. */
  startedAt: number;
  /** VUs running an iteration now (arrival-rate) or in their loop (looping executors). */
  runningVus: number;
  /** VUs the scenario holds (arrival-rate executors add VUs up to maxVUs). */
  allocatedVus: number;
  /** Iterations ended, complete or interrupted. */
  iterationsDone: number;
}

/** What the arrival-rate clock reads of a scenario. */
export type ArrivalsConfig = Pick<
  ScenarioConfig,
  'executor' | 'rate' | 'startRate' | 'timeUnitMs' | 'stages' | 'durationMs'
>;

/** One VU of a scenario's pool, as a run loop sees it (the driver acts on it). */
export interface ScenarioVu {
  /** In an iteration (arrival-rate) or in a loop (looping executors): an active VU. */
  readonly busy: boolean;
}

/** The budget of a VU's loop: its own count of iterations, or the scenario's shared one. */
export interface LoopBudget {
  maxIterations?: number;
  shared?: boolean;
}

/**
 * The primitives of one scenario's run (run/scenario-run.ts) an executor's run loop drives, as a k6
 * executor drives its VU handles: which VU iterates when is the executor's, how is the driver's.
 */
export interface ScenarioDriver {
  readonly config: ScenarioConfig;
  /** Epoch ms the scenario started. */
  readonly startedAt: number;
  /** Its VUs in pool order; growVu() adds one at the end. */
  readonly vus: readonly ScenarioVu[];
  /** No iteration may start any more: the regular duration ended or the test stopped. */
  readonly stopping: boolean;
  /** Starts one iteration on a free VU (one command); resolves when it ends. */
  iterate(vu: ScenarioVu): Promise<void>;
  /** Lets the VU iterate by itself until `end`, its budget or stopLoop(); resolves when its loop returns. */
  loop(vu: ScenarioVu, end: number, budget?: LoopBudget): Promise<void>;
  /** Every VU loops by itself until `end`, its budget or a stop; resolves when all loops return. */
  loopEvery(end: number, budget?: LoopBudget): Promise<unknown>;
  /** The iteration budget shared by every VU's loop (shared-iterations). */
  shareIterations(count: number): void;
  /** The VU starts no further loop iteration; the running one goes on. */
  stopLoop(vu: ScenarioVu): void;
  /** Changes with every loop iteration the VU starts: tells whether it is still in the same one. */
  loopSerial(vu: ScenarioVu): number;
  /** Cuts the VU's running iteration short (counted as interrupted). */
  interrupt(vu: ScenarioVu): void;
  /** Resolves at `end`, or at once when the scenario is stopped (Ctrl-C, test.abort(), abortOnFail). */
  untilEndOrStop(end: number): Promise<void>;
  /** Halts, waits for `work` up to gracefulStop, then interrupts what still runs; resolves when all ended. */
  gracefulEnd(work: Promise<unknown>): Promise<void>;
  /** Waits for the regular duration (or the loops' end, or a stop), then gracefulEnd. */
  regularThenGraceful(loops: Promise<unknown>, end: number): Promise<void>;
  /** Every iteration started by iterate() and not yet ended. */
  inFlight(): Promise<unknown>;
  /** The next notify() (or halt), for a run loop that waits for a change of its own. */
  changed(): Promise<void>;
  notify(): void;
  /** Initialises one more VU and adds it to `vus` (arrival-rate's unplanned VUs). */
  growVu(): Promise<void>;
  /** One iteration dropped (dropped_iterations). */
  dropped(): void;
  /** k6's warning and error lines, with the scenario's fields. */
  warn(message: string): void;
  error(message: string): void;
}

export interface Executor {
  readonly name: ExecutorName;
  /**
   * k6's configuration errors of this executor's own fields, in its Validate's order (k6 joins
   * them with ", " after "scenario X has configuration errors: "); fills the executor's defaults in
   * `s` (arrival-rate maxVUs). `raw` tells which fields were given (k6's Valid).
   */
  validate(s: ScenarioConfig, raw: Record<string, unknown>): string[];
  /** Regular run time from the scenario's start (without gracefulStop). */
  durationMs(s: ScenarioConfig): number;
  /** How many VUs the scenario may need at once. */
  maxVus(s: ScenarioConfig): number;
  /**
   * The VUs the scenario needs over its life, from its own start (k6's GetExecutionRequirements):
   * the scheduler initialises the most planned ones before the test, the banner adds up the
   * scenarios' steps over time (execution-plan.ts).
   */
  executionSteps(s: ScenarioConfig): ExecutionStep[];
  /** The banner's description after the name, and this executor's own parenthesised extras. */
  describe(s: ScenarioConfig): { head: string; extras: string[] };
  /** Iterations of an iteration-bound executor (its progress is their share); undefined for a timed one. */
  totalIterations(s: ScenarioConfig): number | undefined;
  /** The bar's progress and right-hand columns, as the executor's k6 progress function computes them. */
  progress(snapshot: ScenarioSnapshot, now: number): { progress: number; right: string[] };
  /** Iterations an arrival-rate scenario should have started by `elapsedMs`; undefined for looping ones. */
  arrivalsBy?(s: ArrivalsConfig, elapsedMs: number): number;
  /** The run loop: which VUs iterate when, from the scenario's start until it ends. */
  run(driver: ScenarioDriver, end: number): Promise<void>;
}

/** Milliseconds (a scenario's durations, possibly fractional) as k6's integer nanoseconds. */
export const toNs = (ms: number): number => Math.round(ms * 1e6);

/**
 * From `offsetNs` (integer nanoseconds from the scenario's start, or the test's in a whole plan)
 * until the next step, the VUs planned (initialised before the test) and the most that may be
 * initialised during it (arrival-rate's unplanned VUs): k6's lib.ExecutionStep.
 */
export interface ExecutionStep {
  offsetNs: number;
  plannedVus: number;
  maxUnplannedVus: number;
}

/** The steps of an executor whose VUs stay the same from its start until its duration and gracefulStop end. */
export function steadySteps(
  s: ScenarioConfig,
  durationMs: number,
  plannedVus: number,
  maxVus = plannedVus,
): ExecutionStep[] {
  return [
    { offsetNs: 0, plannedVus, maxUnplannedVus: maxVus - plannedVus },
    { offsetNs: toNs(durationMs) + toNs(s.gracefulStopMs), plannedVus: 0, maxUnplannedVus: 0 },
  ];
}

/** The time column of most executors: "1.0s/2s" while running, the whole duration after it. */
export function timeColumn(spent: number, d: number): string {
  return spent > d ? formatDuration(d) : `${fixedDuration(spent, d)}/${formatDuration(d)}`;
}

/** Iterations per second from a per-timeUnit rate. */
export function perSecond(s: ScenarioConfig, rate: number): number {
  return (rate * 1000) / s.timeUnitMs;
}

/** The banner's rate: "10.00 iterations/s". */
export function describeRate(s: ScenarioConfig, rate: number): string {
  return `${perSecond(s, rate).toFixed(2)} iterations/s`;
}

/** k6's shortest duration of a timed executor (lib/executor minDuration). */
const MIN_DURATION_MS = 1000;

/** k6's check of a timed executor's `duration` or `maxDuration`, or undefined. */
export function minDurationError(
  field: 'duration' | 'maxDuration',
  ms: number,
  given: boolean,
): string | undefined {
  if (!given && field === 'duration') return 'the duration is unspecified';
  if (ms < MIN_DURATION_MS)
    return `the ${field} must be at least ${formatDuration(MIN_DURATION_MS)}, but is ${formatDuration(ms)}`;
  return undefined;
}

/** k6's validateStages: every stage needs a duration and a target, neither negative (1-based). */
export function stagesErrors(raw: unknown): string[] {
  const stages = Array.isArray(raw) ? (raw as Record<string, unknown>[]) : [];
  if (stages.length === 0) return ['at least one stage has to be specified'];
  return stages.flatMap((stage, i) => {
    const n = i + 1;
    const errors: string[] = [];
    const duration = stage?.duration;
    if (duration === undefined || duration === null || duration === '')
      errors.push(`stage ${n} doesn't have a duration`);
    else if (String(duration).trim().startsWith('-') || Number(duration) < 0)
      errors.push(`the duration for stage ${n} can't be negative`);
    const target = stage?.target;
    if (target === undefined || target === null || target === '')
      errors.push(`stage ${n} doesn't have a target`);
    else if (Number(target) < 0) errors.push(`the target for stage ${n} can't be negative`);
    return errors;
  });
}

/** Keeps the defined strings of k6's checks, in order. */
export const errorsOf = (...checks: (string | undefined)[]): string[] =>
  checks.filter((c): c is string => c !== undefined);

/** The sum of the stages' durations (ramping executors). */
export function stagesDurationMs(s: ScenarioConfig): number {
  return s.stages.reduce((sum, st) => sum + st.durationMs, 0);
}
