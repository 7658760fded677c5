// Pure timing math of the executors, separate from timers so it is unit-tested exactly.
import { toNs, type ArrivalsConfig, type ScenarioConfig } from './executor.js';

export interface VuCountChange {
  /** From the scenario's start, in integer nanoseconds as k6 computes it. */
  atNs: number;
  atMs: number;
  count: number;
}

/**
 * ramping-vus: when the number of active VUs changes (k6 lib/executor/ramping_vus.go
 * getRawExecutionSteps, its integer nanoseconds truncated as Go's division does). Ramping up from
 * `from` to `to` over D to a stage ending at E, VU u starts at E - D*(to-u)/(to-from); ramping
 * down, VU u stops at E - D*(u-to-1)/(from-to); a stage of 0 s jumps at once. Consecutive changes
 * to the same count are one.
 */
export function rampingVuChanges(
  startVUs: number,
  stages: { durationMs: number; target: number }[],
): VuCountChange[] {
  const changes: VuCountChange[] = [{ atNs: 0, atMs: 0, count: startVUs }];
  const add = (atNs: number, count: number) => {
    if (changes[changes.length - 1]!.count !== count) changes.push({ atNs, atMs: atNs / 1e6, count });
  };
  // D*k/n in integer nanoseconds, truncated; BigInt since D*k can pass 2^53 on long stages.
  const part = (d: number, k: number, n: number) => Number((BigInt(d) * BigInt(k)) / BigInt(n));
  let from = startVUs;
  let endNs = 0;
  for (const { durationMs, target } of stages) {
    const d = toNs(durationMs);
    endNs += d;
    if (target === from) continue;
    if (d === 0) add(endNs, target);
    else if (target > from)
      for (let u = from + 1; u <= target; u++) add(endNs - part(d, target - u, target - from), u);
    else for (let u = from; u > target; u--) add(endNs - part(d, u - target - 1, from - target), u - 1);
    from = target;
  }
  return changes;
}

/** constant-arrival-rate: iterations started by `elapsedMs` (the first at 0, none at the end). */
export function constantArrivalsBy(s: ArrivalsConfig, elapsedMs: number): number {
  if (elapsedMs >= s.durationMs) elapsedMs = s.durationMs - 1e-9;
  return Math.floor((elapsedMs * s.rate) / s.timeUnitMs) + 1;
}

/** ramping-arrival-rate: iterations started by `elapsedMs` (the first at 0 when startRate is > 0). */
export function rampingArrivalsBy(s: ArrivalsConfig, elapsedMs: number): number {
  const started = rampingArrivals(s, elapsedMs);
  return Math.floor(started + 1e-9) + (s.startRate > 0 ? 1 : 0);
}

/** ramping-arrival-rate: the piecewise-linear rate (iterations per timeUnit) integrated up to `elapsedMs`. */
export function rampingArrivals(
  s: Pick<ScenarioConfig, 'startRate' | 'timeUnitMs' | 'stages'>,
  elapsedMs: number,
): number {
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
  return integral / s.timeUnitMs;
}

/**
 * ramping-arrival-rate's rate as k6's progress bar shows it: one second over the gap between the
 * last iteration started by `elapsedMs` and the next one due (its tickerPeriod), found by bisection.
 */
export function rampingTickerRate(
  s: Pick<ScenarioConfig, 'startRate' | 'timeUnitMs' | 'stages'>,
  elapsedMs: number,
): number {
  const totalMs = s.stages.reduce((sum, stage) => sum + stage.durationMs, 0);
  const dueAt = (k: number): number | undefined => {
    if (rampingArrivals(s, totalMs) < k - 1e-9) return undefined;
    let lo = 0;
    let hi = totalMs;
    for (let i = 0; i < 50; i++) {
      const mid = (lo + hi) / 2;
      if (rampingArrivals(s, mid) >= k - 1e-9) hi = mid;
      else lo = mid;
    }
    return hi;
  };
  // The last iteration started before `elapsedMs` (one due exactly then is the next, as at the end).
  const last = Math.max(0, Math.ceil(rampingArrivals(s, elapsedMs) - 1e-9) - 1);
  const from = dueAt(last);
  const to = dueAt(last + 1);
  if (from === undefined || to === undefined || to <= from) return (s.startRate * 1000) / s.timeUnitMs;
  return 1000 / (to - from);
}
