// Pure timing math of the executors, separate from timers so it is unit-tested exactly.
import type { ScenarioConfig } from './options.js';

export interface VuCountChange {
  atMs: number;
  count: number;
}

/**
 * ramping-vus: when the number of active VUs changes. Ramping up from `from` to `to` over D, VU u
 * starts at stageStart + D*(u-from)/(to-from); ramping down, VU u stops at
 * stageStart + D*(from-u+1)/(from-to) (k6 lib/executor/ramping_vus.go, integer ns truncated).
 */
export function rampingVuChanges(
  startVUs: number,
  stages: { durationMs: number; target: number }[],
): VuCountChange[] {
  const changes: VuCountChange[] = [{ atMs: 0, count: startVUs }];
  let from = startVUs;
  let stageStart = 0;
  for (const { durationMs, target } of stages) {
    if (durationMs === 0) {
      if (target !== from) changes.push({ atMs: stageStart, count: target });
    } else if (target > from) {
      for (let u = from + 1; u <= target; u++) {
        changes.push({
          atMs: Math.trunc((durationMs * (u - from) * 1e6) / (target - from)) / 1e6 + stageStart,
          count: u,
        });
      }
    } else if (target < from) {
      for (let u = from; u > target; u--) {
        changes.push({
          atMs: Math.trunc((durationMs * (from - u + 1) * 1e6) / (from - target)) / 1e6 + stageStart,
          count: u - 1,
        });
      }
    }
    from = target;
    stageStart += durationMs;
  }
  return changes;
}

/** Iterations an arrival-rate scenario should have started by `elapsedMs` (first one at 0 when the rate is > 0). */
export function arrivalsBy(
  s: Pick<ScenarioConfig, 'executor' | 'rate' | 'startRate' | 'timeUnitMs' | 'stages' | 'durationMs'>,
  elapsedMs: number,
): number {
  if (s.executor === 'constant-arrival-rate') {
    if (elapsedMs >= s.durationMs) elapsedMs = s.durationMs - 1e-9;
    return Math.floor((elapsedMs * s.rate) / s.timeUnitMs) + 1;
  }
  // ramping-arrival-rate: integrate the piecewise-linear rate (iterations per timeUnit).
  let integral = 0;
  let rate = s.startRate;
  let t = 0;
  for (const stage of s.stages) {
    const end = t + stage.durationMs;
    const span = Math.min(elapsedMs, end) - t;
    if (span <= 0) break;
    const rateAt =
      stage.durationMs === 0 ? stage.target : rate + ((stage.target - rate) * span) / stage.durationMs;
    integral += ((rate + rateAt) / 2) * span;
    rate = stage.target;
    t = end;
  }
  const started = integral / s.timeUnitMs;
  return Math.floor(started + 1e-9) + (s.startRate > 0 ? 1 : 0);
}
