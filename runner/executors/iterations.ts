// What shared-iterations and per-vu-iterations share: k6's validation of vus and iterations.
import type { ScenarioConfig } from './executor.js';

/** k6's errors for a scenario's VUs and iterations, or undefined. */
export function iterationsError(s: ScenarioConfig): string | undefined {
  if (!(s.vus > 0)) return 'the number of VUs must be more than 0';
  if (!(s.iterations > 0)) return 'the number of iterations must be more than 0';
  return undefined;
}
