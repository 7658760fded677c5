// The executors by name: the runner looks an executor up here instead of branching on its name.
import { constantArrivalRate } from './constant-arrival-rate.js';
import { constantVus } from './constant-vus.js';
import type { ArrivalsConfig, Executor, ScenarioConfig } from './executor.js';
import { perVuIterations } from './per-vu-iterations.js';
import { rampingArrivalRate } from './ramping-arrival-rate.js';
import { rampingVus } from './ramping-vus.js';
import { sharedIterations } from './shared-iterations.js';

export type {
  Executor,
  ExecutorName,
  LoopBudget,
  ScenarioConfig,
  ScenarioDriver,
  ScenarioSnapshot,
  ScenarioVu,
  StageMs,
} from './executor.js';

const EXECUTORS: ReadonlyMap<string, Executor> = new Map(
  [sharedIterations, perVuIterations, constantVus, rampingVus, constantArrivalRate, rampingArrivalRate].map(
    (e) => [e.name, e],
  ),
);

/** The executor of that name, or undefined for a name k6 does not know. */
export function findExecutor(name: unknown): Executor | undefined {
  return typeof name === 'string' ? EXECUTORS.get(name) : undefined;
}

/** The executor of a validated scenario (its name was checked by findExecutor). */
export function executorOf(s: Pick<ScenarioConfig, 'executor'>): Executor {
  return EXECUTORS.get(s.executor)!;
}

/** Iterations an arrival-rate scenario should have started by `elapsedMs`. */
export function arrivalsBy(s: ArrivalsConfig, elapsedMs: number): number {
  return executorOf(s).arrivalsBy!(s, elapsedMs);
}
