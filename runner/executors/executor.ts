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

/** The scenario run's machinery an executor's run loop drives (run/scenario-run.ts implements it). */
export interface ScenarioDriver {
  readonly config: ScenarioConfig;
  /** Every VU loops by itself until `end`, its budget or a stop; resolves when all loops return. */
  loopEvery(end: number, budget?: { maxIterations?: number; shared?: boolean }): Promise<unknown>;
  /** The iteration budget shared by every VU's loop (shared-iterations). */
  shareIterations(count: number): void;
  /** VUs in use: those the looping executors start, ramping-vus' current target. */
  setTarget(count: number): void;
  /** Waits for the regular duration (or the loops' end, or a stop), then gracefulStop. */
  regularThenGraceful(loops: Promise<unknown>, end: number): Promise<void>;
  /** ramping-vus: VUs start and stop looping at k6's times, above-target ones within gracefulRampDown. */
  rampVus(end: number): Promise<void>;
  /** arrival-rate: iterations started on the executor's clock, dropped when no VU is free. */
  arrivalRate(end: number): Promise<void>;
}

export interface Executor {
  readonly name: ExecutorName;
  /**
   * k6's configuration error for this executor (the part after "scenario X has configuration
   * errors: "), or undefined; fills the executor's defaults in `s` (arrival-rate maxVUs).
   */
  validate(s: ScenarioConfig, raw: Record<string, unknown>): string | undefined;
  /** Regular run time from the scenario's start (without gracefulStop). */
  durationMs(s: ScenarioConfig): number;
  /** How many VUs the scenario may need at once. */
  maxVus(s: ScenarioConfig): number;
  /** VUs initialised before the test starts (an arrival-rate pool grows from there to maxVus). */
  plannedVus(s: ScenarioConfig): number;
  /** The banner's description after the name, and this executor's own parenthesised extras. */
  describe(s: ScenarioConfig): { head: string; extras: string[] };
  /** Iterations of an iteration-bound executor (its progress is their share); undefined for a timed one. */
  totalIterations(s: ScenarioConfig): number | undefined;
  /** The bar's progress and right-hand columns, as the executor's k6 progress function computes them. */
  progress(snapshot: ScenarioSnapshot, now: number): { progress: number; right: string[] };
  /** Iterations an arrival-rate scenario should have started by `elapsedMs`; undefined for looping ones. */
  arrivalsBy?(s: ArrivalsConfig, elapsedMs: number): number;
  run(driver: ScenarioDriver, end: number): Promise<void>;
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

/** The sum of the stages' durations (ramping executors). */
export function stagesDurationMs(s: ScenarioConfig): number {
  return s.stages.reduce((sum, st) => sum + st.durationMs, 0);
}
