// The whole test's VUs over time (k6 lib/executors.go GetFullExecutionRequirements): each
// scenario's execution steps moved by its startTime and added up, so VUs of scenarios that never
// run at the same time are counted once. The banner's "max VUs" and "max duration", the progress
// line's widths and `inspect`'s maxVUs and totalDuration come from it, as k6's do.
import { toNs, type ExecutionStep, type ScenarioConfig } from './executor.js';
import { executorOf } from './index.js';

/** Scenarios (or what holds one) by startTime, then name: the order k6 lists, plans and draws them in. */
export function k6Order<T extends { config: ScenarioConfig }>(items: readonly T[]): T[] {
  return [...items].sort(
    (a, b) =>
      a.config.startTimeMs - b.config.startTimeMs ||
      (a.config.name < b.config.name ? -1 : a.config.name > b.config.name ? 1 : 0),
  );
}

/**
 * The test's steps: at each moment a scenario's need changes, the sum over all scenarios. Steps at
 * the same time are taken one at a time in k6's order, each giving a step of its own when the sum
 * changes, as k6 does: a scenario ending when a later-listed one starts frees its VUs first.
 */
export function executionPlan(scenarios: readonly ScenarioConfig[]): ExecutionStep[] {
  const ordered = k6Order(scenarios.map((config) => ({ config }))).map(({ config }) => config);
  const timed = ordered.flatMap((s, id) =>
    executorOf(s)
      .executionSteps(s)
      .map((step) => ({ ...step, offsetNs: toNs(s.startTimeMs) + step.offsetNs, id })),
  );
  // A stable sort: one scenario's steps at the same time keep their order.
  timed.sort((a, b) => a.offsetNs - b.offsetNs || a.id - b.id);
  const planned = ordered.map(() => 0);
  const unplanned = ordered.map(() => 0);
  const sum = (values: number[]) => values.reduce((n, v) => n + v, 0);
  const plan: ExecutionStep[] = [];
  for (const step of timed) {
    planned[step.id] = step.plannedVus;
    unplanned[step.id] = step.maxUnplannedVus;
    const next = { offsetNs: step.offsetNs, plannedVus: sum(planned), maxUnplannedVus: sum(unplanned) };
    const last = plan[plan.length - 1];
    if (!last || last.plannedVus !== next.plannedVus || last.maxUnplannedVus !== next.maxUnplannedVus)
      plan.push(next);
  }
  return plan;
}

/** The most VUs initialised before the test (k6 GetMaxPlannedVUs). */
export function maxPlannedVus(steps: readonly ExecutionStep[]): number {
  return steps.reduce((max, s) => Math.max(max, s.plannedVus), 0);
}

/** The most VUs the steps may hold, unplanned ones included (k6 GetMaxPossibleVUs): the banner's "max VUs". */
export function maxPossibleVus(steps: readonly ExecutionStep[]): number {
  return steps.reduce((max, s) => Math.max(max, s.plannedVus + s.maxUnplannedVus), 0);
}

/** When the last step starts (k6 GetEndOffset): the test's max duration with graceful stops, in ms. */
export function endOffsetMs(steps: readonly ExecutionStep[]): number {
  return steps.length === 0 ? 0 : steps[steps.length - 1]!.offsetNs / 1e6;
}
