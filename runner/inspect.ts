// `k6 inspect --execution-requirements` for the runner's API: run a script's init once (on VU 0) with
// the given environment and flags, and report its consolidated options and what each scenario needs.
import { resolve } from 'node:path';
import { parseRunArgs } from './cli/args.js';
import { consolidate, scenarioMaxVus } from './options/options.js';
import { endOffsetMs, executionPlan, maxPossibleVus } from './executors/execution-plan.js';
import { createVu, loadScript } from './host/hosted-vu.js';
import { chooseVuHost } from './host/vu-host-choice.js';

export interface ScenarioRequirements {
  name: string;
  executor: string;
  /** The VUs this scenario can use at most (k6's MaxVUs of its execution requirements). */
  maxVus: number;
}

export interface Inspection {
  /** The script's exported `options` as its init left them. */
  options: Record<string, unknown>;
  scenarios: ScenarioRequirements[];
  /** The most VUs the whole test may hold at once: scenarios that never overlap in time share theirs (k6's maxVUs). */
  maxVus: number;
  /** The test's longest run with graceful stops (k6's totalDuration). */
  totalDurationMs: number;
  /** What the init code logged (console.*), in order. */
  logs: string[];
}

export async function inspect(
  script: string,
  { env = {}, flags = [] }: { env?: Record<string, string>; flags?: string[] } = {},
): Promise<Inspection> {
  const scriptPath = resolve(script);
  const bundle = await loadScript(scriptPath);
  const logs: string[] = [];
  const host = await chooseVuHost(bundle);
  const vu = createVu(
    { scriptPath, bundle, vuId: 0, env, runTags: {}, startCode: host.start },
    { onSamples: () => undefined, onLog: (_level, message) => logs.push(message) },
  );
  try {
    const { options } = await vu.init();
    const config = consolidate(options, env, parseRunArgs([script, ...flags]));
    const plan = executionPlan(config.scenarios);
    return {
      options: options as Record<string, unknown>,
      scenarios: config.scenarios.map((s) => ({
        name: s.name,
        executor: s.executor,
        maxVus: scenarioMaxVus(s),
      })),
      maxVus: maxPossibleVus(plan),
      totalDurationMs: endOffsetMs(plan),
      logs,
    };
  } finally {
    await vu.close();
  }
}
