// Consolidates test options the way k6 does (script options < K6_* env < CLI flags), derives the
// scenarios (shortcuts or `options.scenarios`), and validates them. Errors are OptionsError:
// the run stops with exit code 104 and k6's message.
import { DurationError, parseDuration } from '../metrics/index.js';
import { SUMMARY_MODES, type RunFlags } from '../cli/args.js';
import {
  executorOf,
  findExecutor,
  type ExecutorName,
  type ScenarioConfig,
  type StageMs,
} from '../executors/index.js';

export type { ExecutorName, ScenarioConfig, StageMs } from '../executors/index.js';

export class OptionsError extends Error {}

export interface TestConfig {
  /** What the script sees as exec.test.options and outputs get: k6-shaped, after overrides. */
  options: Record<string, unknown>;
  scenarios: ScenarioConfig[];
  thresholds: unknown;
  summaryTrendStats?: string[];
  summaryMode: (typeof SUMMARY_MODES)[number];
  summaryExport?: string;
  summaryTimeUnit: string;
  noThresholds: boolean;
  runTags: Record<string, string>;
  outs: string[];
  setupTimeoutMs: number;
  teardownTimeoutMs: number;
}

function duration(value: unknown, what: string): number {
  try {
    return parseDuration(value);
  } catch (error) {
    throw new OptionsError(`${what}: ${(error as DurationError).message}`);
  }
}

function stagesFrom(value: unknown, where: string): StageMs[] {
  if (!Array.isArray(value)) throw new OptionsError(`${where}: stages must be a list`);
  return value
    .filter((s: { duration?: unknown }) => s && s.duration !== undefined && s.duration !== '')
    .map((s: { duration?: unknown; target?: unknown }, i) => {
      const target = Number(s.target ?? 0);
      if (!Number.isInteger(target) || target < 0)
        throw new OptionsError(`${where}: stage ${i} has an invalid target ${String(s.target)}`);
      return { durationMs: duration(s.duration, `${where}: stage ${i}`), target };
    });
}

/** `10s:5` -> stage; the CLI `-s` form and K6_STAGES. */
function cliStage(text: string): { duration: string; target: number } {
  const [d, t] = text.split(':');
  const target = Number(t ?? 0);
  if (!d || !Number.isInteger(target) || target < 0)
    throw new OptionsError(`invalid stage "${text}": expected DURATION:TARGET`);
  return { duration: d, target };
}

const num = (v: unknown, fallback: number) => (v === undefined || v === null ? fallback : Number(v));

function scenarioFrom(name: string, raw: Record<string, unknown>): ScenarioConfig {
  const where = `scenario ${name} has configuration errors`;
  if (!/^[0-9a-zA-Z_-]+$/.test(name))
    throw new OptionsError(`invalid scenario name "${name}": only letters, digits, _ and - are allowed`);
  const found = findExecutor(raw.executor);
  if (!found) throw new OptionsError(`${where}: unknown executor "${String(raw.executor)}"`);
  const executor: ExecutorName = found.name;
  if (raw.exec === '') throw new OptionsError(`${where}: exec must not be empty`);
  const s: ScenarioConfig = {
    name,
    executor,
    exec: typeof raw.exec === 'string' ? raw.exec : 'default',
    execExplicit: typeof raw.exec === 'string',
    startTimeMs: raw.startTime === undefined ? 0 : duration(raw.startTime, where),
    gracefulStopMs: raw.gracefulStop === undefined ? 30_000 : duration(raw.gracefulStop, where),
    env: Object.fromEntries(
      Object.entries((raw.env as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    tags: Object.fromEntries(
      Object.entries((raw.tags as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    vus: num(raw.vus, 1),
    iterations: num(raw.iterations, 1),
    maxDurationMs: raw.maxDuration === undefined ? 600_000 : duration(raw.maxDuration, where),
    durationMs: raw.duration === undefined ? 0 : duration(raw.duration, where),
    startVUs: num(raw.startVUs, 1),
    stages: raw.stages === undefined ? [] : stagesFrom(raw.stages, where),
    gracefulRampDownMs: raw.gracefulRampDown === undefined ? 30_000 : duration(raw.gracefulRampDown, where),
    rate: num(raw.rate, 0),
    startRate: num(raw.startRate, 0),
    timeUnitMs: raw.timeUnit === undefined ? 1000 : duration(raw.timeUnit, where),
    preAllocatedVUs: num(raw.preAllocatedVUs, -1),
    maxVUs: num(raw.maxVUs, -1),
  };
  const error = found.validate(s, raw);
  if (error) throw new OptionsError(`${where}: ${error}`);
  return s;
}

/**
 * Every scenario, or k6's one error listing each scenario's configuration error (k6's
 * Options.Validate, as real k6 v1.3 prints it); other errors (a bad name or duration) stop at once.
 */
function validScenarios(raw: Record<string, Record<string, unknown>>): ScenarioConfig[] {
  const problems: string[] = [];
  const scenarios: ScenarioConfig[] = [];
  for (const [name, config] of Object.entries(raw)) {
    try {
      scenarios.push(scenarioFrom(name, config));
    } catch (error) {
      if (!(
        error instanceof OptionsError && error.message.startsWith(`scenario ${name} has configuration errors`)
      ))
        throw error;
      problems.push(error.message);
    }
  }
  if (problems.length)
    throw new OptionsError(
      `There were problems with the specified script configuration:\n\t- ${problems.join('\n\t- ')}`,
    );
  return scenarios;
}

/** k6's DeriveScenariosFromShortcuts: the single `default` scenario of vus/duration/iterations/stages. */
function shortcutScenario(o: {
  vus?: number;
  duration?: string;
  iterations?: number;
  stages?: unknown[];
}): Record<string, unknown> {
  if (o.iterations !== undefined) {
    return {
      executor: 'shared-iterations',
      vus: o.vus ?? 1,
      iterations: o.iterations,
      ...(o.duration ? { maxDuration: o.duration } : {}),
    };
  }
  if (o.duration !== undefined && duration(o.duration, 'duration') > 0)
    return { executor: 'constant-vus', vus: o.vus ?? 1, duration: o.duration };
  if (o.stages !== undefined && o.stages.length > 0)
    return { executor: 'ramping-vus', startVUs: o.vus ?? 1, stages: o.stages };
  return { executor: 'per-vu-iterations', vus: 1, iterations: 1 };
}

const STATIC_TREND_STATS = new Set(['avg', 'min', 'med', 'max', 'count']);

/** A summary trend column as k6 accepts it (metrics.GetResolversForTrendColumns), or k6's error. */
function validateTrendStat(stat: string): void {
  if (STATIC_TREND_STATS.has(stat)) return;
  if (!stat.startsWith('p(') || !stat.endsWith(')')) {
    throw new OptionsError(`invalid trend stat '${stat}', unknown format`);
  }
  const inner = stat.slice(2, -1);
  const percentile = Number(inner);
  if (inner.trim() === '' || !Number.isFinite(percentile) || percentile < 0 || percentile > 100) {
    throw new OptionsError(
      `invalid percentile trend stat value '${stat}', provide a number between 0 and 100`,
    );
  }
}

/**
 * k6 runs a slice of the test with --execution-segment (k6-operator starts one such k6 per pod). The
 * Node runner always runs the whole test, so a segment from the flags, K6_* or the script's options is
 * refused rather than silently ignored: N runners would each generate the full load.
 */
function refuseExecutionSegments(
  script: Record<string, unknown>,
  env: Record<string, string | undefined>,
  flags: RunFlags,
): void {
  const given = [
    ['--execution-segment', flags.executionSegment ?? env.K6_EXECUTION_SEGMENT ?? script.executionSegment],
    [
      '--execution-segment-sequence',
      flags.executionSegmentSequence ?? env.K6_EXECUTION_SEGMENT_SEQUENCE ?? script.executionSegmentSequence,
    ],
  ].filter(([, value]) => value !== undefined && value !== '');
  if (given.length === 0) return;
  throw new OptionsError(
    `execution segments (${given.map(([name]) => name).join(', ')}) are not supported by the loadlab ` +
      'Node runner, which always runs the whole test; run segmented or distributed tests on k6 ' +
      '(stack/k8s/README.md)',
  );
}

export function consolidate(
  script: Record<string, unknown>,
  env: Record<string, string | undefined>,
  flags: RunFlags,
): TestConfig {
  refuseExecutionSegments(script, env, flags);
  const fromEnv = {
    vus: env.K6_VUS ? Number(env.K6_VUS) : undefined,
    duration: env.K6_DURATION || undefined,
    iterations: env.K6_ITERATIONS ? Number(env.K6_ITERATIONS) : undefined,
    stages: env.K6_STAGES ? env.K6_STAGES.split(',').map(cliStage) : undefined,
  };
  const fromCli = {
    vus: flags.vus,
    duration: flags.duration,
    iterations: flags.iterations,
    stages: flags.stages.length ? flags.stages.map(cliStage) : undefined,
  };
  const pick = <K extends keyof typeof fromCli>(k: K) => fromCli[k] ?? fromEnv[k];
  const overridden =
    pick('duration') !== undefined || pick('iterations') !== undefined || pick('stages') !== undefined;

  let scenariosRaw: Record<string, Record<string, unknown>>;
  if (overridden) {
    // A duration, iteration count or stages from env/CLI replace the script's execution config, as in k6.
    scenariosRaw = {
      default: shortcutScenario({
        vus: pick('vus') ?? (script.vus as number | undefined),
        duration: pick('duration'),
        iterations: pick('iterations'),
        stages: pick('stages'),
      }),
    };
  } else if (script.scenarios && typeof script.scenarios === 'object') {
    const shortcuts = ['duration', 'iterations', 'stages'].filter((k) => script[k] !== undefined);
    if (shortcuts.length > 0)
      throw new OptionsError(
        `using multiple execution config shortcuts (${shortcuts.join(', ')}) simultaneously with scenarios is not allowed`,
      );
    scenariosRaw = script.scenarios as Record<string, Record<string, unknown>>;
  } else {
    const given = ['duration', 'iterations', 'stages'].filter((k) => script[k] !== undefined);
    if (
      given.length > 1 &&
      !(given.length === 2 && given.includes('duration') && given.includes('iterations'))
    ) {
      throw new OptionsError(
        `using multiple execution config shortcuts (${given.join(', ')}) simultaneously is not allowed`,
      );
    }
    scenariosRaw = {
      default: shortcutScenario({
        vus: pick('vus') ?? (script.vus as number | undefined),
        duration: script.duration as string | undefined,
        iterations: script.iterations as number | undefined,
        stages: script.stages as unknown[] | undefined,
      }),
    };
  }
  const scenarios = validScenarios(scenariosRaw);
  if (scenarios.length === 0) throw new OptionsError('no scenarios configured');

  const trendStats =
    flags.summaryTrendStats ??
    (env.K6_SUMMARY_TREND_STATS ? env.K6_SUMMARY_TREND_STATS.split(',') : undefined) ??
    (script.summaryTrendStats as string[] | undefined);
  if (trendStats) for (const stat of trendStats) validateTrendStat(String(stat));
  // As in k6, the environment is read (and checked) only when the flag is not given.
  const envMode = flags.summaryMode === undefined ? env.K6_SUMMARY_MODE : undefined;
  if (envMode !== undefined && !(SUMMARY_MODES as readonly string[]).includes(envMode)) {
    throw new OptionsError('invalid summary mode'); // k6's words (internal/lib/summary)
  }
  const mode =
    flags.summaryMode ??
    (env.K6_NO_SUMMARY === 'true' ? 'disabled' : (envMode as TestConfig['summaryMode'] | undefined)) ??
    'compact';
  // --tag replaces the script's options.tags as a whole, as k6 consolidates its options.
  const runTags = Object.keys(flags.tags).length
    ? { ...flags.tags }
    : { ...((script.tags as Record<string, string>) ?? {}) };
  const options: Record<string, unknown> = { ...script, scenarios: scenariosRaw };
  for (const k of ['vus', 'duration', 'iterations', 'stages']) delete options[k];
  if (trendStats) options.summaryTrendStats = trendStats;
  if (Object.keys(runTags).length) options.tags = runTags;
  const outs = [...(env.K6_OUT ? [env.K6_OUT] : []), ...flags.outs];
  return {
    options,
    scenarios,
    thresholds: script.thresholds,
    summaryTrendStats: trendStats,
    summaryMode: mode,
    summaryExport: flags.summaryExport ?? env.K6_SUMMARY_EXPORT ?? undefined,
    summaryTimeUnit:
      flags.summaryTimeUnit ??
      env.K6_SUMMARY_TIME_UNIT ??
      (script.summaryTimeUnit as string | undefined) ??
      '',
    noThresholds: flags.noThresholds || env.K6_NO_THRESHOLDS === 'true' || script.noThresholds === true,
    runTags,
    outs: flags.outs.length > 0 ? flags.outs : outs,
    setupTimeoutMs:
      script.setupTimeout === undefined ? 60_000 : duration(script.setupTimeout, 'setupTimeout'),
    teardownTimeoutMs:
      script.teardownTimeout === undefined ? 60_000 : duration(script.teardownTimeout, 'teardownTimeout'),
  };
}

/** Regular run time of a scenario (without gracefulStop), from its start. */
export function scenarioDurationMs(s: ScenarioConfig): number {
  return executorOf(s).durationMs(s);
}

/** How many VUs a scenario may need at once. */
export function scenarioMaxVus(s: ScenarioConfig): number {
  return executorOf(s).maxVus(s);
}
