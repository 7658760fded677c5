// How many VUs a bundle's scenarios reach under a profile, read the way `k6 inspect
// --execution-requirements` reads them: the script's init runs (on the Node runner's VU 0) and its
// options are consolidated. k6 deals each scenario's VUs out to the execution segments by VU index, the
// same index always to the same segment: a scenario of V VUs reaches the V segments that own indices
// 0..V-1, so the runners with any VU at all are as many as the largest scenario has VUs (at most N).
import { inspect, type ScenarioRequirements } from '@loadlab/runner';

export type ScenarioVus = ScenarioRequirements;

/**
 * Init needs the credentials to be set (the suite refuses to start without them) but never sends them:
 * placeholders are enough to read the options.
 */
const INIT_ONLY_ENV = {
  DEMO_EMAIL: 'init-only@example.invalid',
  DEMO_PASSWORD: 'init-only',
  ADMIN_USER: 'init-only',
  ADMIN_PASSWORD: 'init-only',
};

export async function scenarioVus(bundlePath: string, profile: string): Promise<ScenarioVus[]> {
  return (await inspect(bundlePath, { env: { ...INIT_ONLY_ENV, LT_PROFILE: profile } })).scenarios;
}

/** Runners of a TestRun that get at least one VU: segments.e2e.test.ts checks this against real k6. */
export function runnersWithVus(scenarios: readonly ScenarioVus[], parallelism: number): number {
  return Math.min(parallelism, Math.max(0, ...scenarios.map((s) => s.maxVus)));
}

/** VUs of all scenarios together: the number k6 splits among the runners. */
export function totalVus(scenarios: readonly ScenarioVus[]): number {
  return scenarios.reduce((sum, s) => sum + s.maxVus, 0);
}
