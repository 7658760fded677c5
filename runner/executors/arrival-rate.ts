// What constant- and ramping-arrival-rate share: k6's preAllocatedVUs/maxVUs rules and the VU column.
import type { ScenarioConfig, ScenarioSnapshot } from './executor.js';
import { fixedInt } from './fixed-width.js';

/** k6's error for the VU pool, or undefined; maxVUs defaults to preAllocatedVUs. */
export function vuPoolError(raw: Record<string, unknown>): string | undefined {
  if (raw.preAllocatedVUs === undefined) return "the number of preAllocatedVUs isn't specified";
  return undefined;
}

/** After the executor's own checks: maxVUs defaults to preAllocatedVUs and may not be below it. */
export function maxVusError(s: ScenarioConfig): string | undefined {
  if (s.maxVUs < 0) s.maxVUs = s.preAllocatedVUs;
  if (s.maxVUs < s.preAllocatedVUs) return "maxVUs shouldn't be less than preAllocatedVUs";
  return undefined;
}

/** "02/10 VUs": VUs in an iteration now over the VUs the pool holds, as wide as maxVUs. */
export function vuColumn(snap: ScenarioSnapshot): string {
  const c = snap.config;
  return `${fixedInt(snap.runningVus, c.maxVUs)}/${fixedInt(snap.allocatedVus, c.maxVUs)} VUs`;
}

/** The banner's pool: "maxVUs: 2-3", or one number when maxVUs is preAllocatedVUs (k6's GetDescription). */
export function maxVusFact(s: ScenarioConfig): string {
  return s.maxVUs > s.preAllocatedVUs
    ? `maxVUs: ${s.preAllocatedVUs}-${s.maxVUs}`
    : `maxVUs: ${s.preAllocatedVUs}`;
}
