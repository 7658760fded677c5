// What shared-iterations and per-vu-iterations share: k6's validation of vus and maxDuration.
import { minDurationError, type ScenarioConfig } from './executor.js';

/** k6's error for a scenario's VUs, or undefined. */
export function vusError(s: ScenarioConfig): string | undefined {
  return s.vus > 0 ? undefined : 'the number of VUs must be more than 0';
}

/** k6's error for an iteration-bound scenario's maxDuration, or undefined. */
export function maxDurationError(s: ScenarioConfig): string | undefined {
  return minDurationError('maxDuration', s.maxDurationMs, true);
}
