// How many VUs a bundle's scenarios reach under a profile, read the way `k6 inspect
// --execution-requirements` reads them: the script's init runs (on the Node runner's VU 0) and its
// options are consolidated. k6 deals each scenario's VUs out to the execution segments by VU index, the
// same index always to the same segment: a scenario of V VUs reaches the V segments that own indices
// 0..V-1, so the runners with any VU at all are as many as the largest scenario has VUs (at most N).
import { resolve } from 'node:path';
import { parseRunArgs } from '../../runner/cli/args.js';
import { consolidate, scenarioMaxVus } from '../../runner/options/options.js';
import { createVu, loadScript } from '../../runner/host/vu.js';

export interface ScenarioVus {
  name: string;
  executor: string;
  maxVus: number;
}

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
  const scriptPath = resolve(bundlePath);
  const bundle = await loadScript(scriptPath);
  const logs: string[] = [];
  const vu = createVu(
    { scriptPath, bundle, vuId: 0, env: { ...INIT_ONLY_ENV, LT_PROFILE: profile }, runTags: {} },
    { onSamples: () => undefined, onLog: (_level, message) => logs.push(message) },
  );
  try {
    const { options } = await vu.init();
    const config = consolidate(options, {}, parseRunArgs([bundlePath]));
    return config.scenarios.map((s) => ({ name: s.name, executor: s.executor, maxVus: scenarioMaxVus(s) }));
  } finally {
    await vu.close();
  }
}

/** Runners of a TestRun that get at least one VU: segments.e2e.test.ts checks this against real k6. */
export function runnersWithVus(scenarios: readonly ScenarioVus[], parallelism: number): number {
  return Math.min(parallelism, Math.max(0, ...scenarios.map((s) => s.maxVus)));
}

/** VUs of all scenarios together: the number k6 splits among the runners. */
export function totalVus(scenarios: readonly ScenarioVus[]): number {
  return scenarios.reduce((sum, s) => sum + s.maxVus, 0);
}
