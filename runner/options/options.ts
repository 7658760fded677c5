// Consolidates test options the way k6 does (script options < K6_* env < CLI flags), derives the
// scenarios (shortcuts or `options.scenarios`), and validates them. Errors are OptionsError:
// the run stops with exit code 104 and k6's message.
import { DurationError, formatDuration, goDurationError, parseDuration } from '../metrics/index.js';
import { SUMMARY_MODES, type RunFlags } from './run-flags.js';
import {
  executorOf,
  findExecutor,
  type ExecutorName,
  type ScenarioConfig,
  type StageMs,
} from '../executors/index.js';
import { BARE_NUMBER, optionsDecodeError } from './options-json.js';
import { dnsTtlMs } from './dns-ttl.js';
import { dnsFromText, envDnsError, mergeDns, type DnsFields } from './dns-option.js';
import { goParseBool } from './go-bool.js';
import { HostsTable } from '../host/hosts-option.js';
import { cidrRefusal, HostnameBlocklist, IpBlacklist } from '../host/blocklists.js';
import { envconfigError } from './envconfig.js';

export type { ExecutorName, ScenarioConfig, StageMs } from '../executors/index.js';

export class OptionsError extends Error {}

/**
 * An error k6 meets while decoding the exported options into its Go struct: k6 prints it as
 * "could not initialize '<script>': could not load JS test '<url>': <message>", exit 104; or
 * (`plain`) while applying them to its runner, the same line with no exit code of its own (255).
 */
export class OptionsLoadError extends OptionsError {
  constructor(
    message: string,
    readonly plain = false,
  ) {
    super(message);
  }
}

/** An options error k6 returns without an exit code of its own (exit 255): a flag's or a trend stat's. */
export class OptionsPlainError extends OptionsError {}

/** k6's one error listing every validation problem, each on its own line (internal/cmd/config.go). */
export function validationError(problems: string[]): OptionsError {
  return new OptionsError(
    `There were problems with the specified script configuration:\n\t- ${problems.join('\n\t- ')}`,
  );
}

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
  /** options.noSetup as consolidated (--no-setup, K6_NO_SETUP): setup() is not run, nor a VU made for it. */
  noSetup: boolean;
  /** options.noTeardown as consolidated (--no-teardown, K6_NO_TEARDOWN): teardown() is not run. */
  noTeardown: boolean;
  runTags: Record<string, string>;
  outs: string[];
  setupTimeoutMs: number;
  teardownTimeoutMs: number;
  /** k6's warnings about the options (a `vus` no scenario uses, empty `stages`). */
  warnings: string[];
}

/**
 * A duration option as k6 decodes it: a bare number (or numeric string) is milliseconds; Go's
 * durations may be negative (k6's validation then refuses them).
 */
function duration(value: unknown): number {
  if (typeof value === 'string' && BARE_NUMBER.test(value)) return Number(value);
  try {
    return parseDuration(value);
  } catch (error) {
    throw new OptionsLoadError((error as DurationError).message);
  }
}

/** The stages as decoded (types were checked by optionsDecodeError; validation reports gaps). */
function stagesFrom(value: unknown): StageMs[] {
  if (!Array.isArray(value)) return [];
  return value.map((s: { duration?: unknown; target?: unknown }) => ({
    durationMs: s?.duration === undefined || s.duration === '' ? 0 : duration(s.duration),
    target: Number(s?.target ?? 0),
  }));
}

/** `10s:5` -> stage; the CLI `-s` form and K6_STAGES (a stage without target is k6's validation's). */
function cliStage(text: string, i: number): { duration: string; target?: number } {
  const [d, t] = text.split(':');
  if (t !== undefined && !/^[+-]?\d+$/.test(t))
    throw new OptionsPlainError(
      `error for stage ${i}: strconv.ParseInt: parsing ${JSON.stringify(t)}: invalid syntax`,
    );
  try {
    if (d) duration(d);
  } catch (error) {
    throw new OptionsPlainError(`error for stage ${i}: ${(error as Error).message}`);
  }
  return { duration: d ?? '', ...(t === undefined ? {} : { target: Number(t) }) };
}

const num = (v: unknown, fallback: number) =>
  v === undefined || v === null || v === '' ? fallback : Number(v);

/** k6's scenario names (lib/executor/base_config.go). */
const SCENARIO_NAME = /^[0-9a-zA-Z_-]+$/;

/** A scenario's config, or the problems k6's BaseConfig and executor Validate() find, in their order. */
function scenarioFrom(name: string, raw: Record<string, unknown>): ScenarioConfig | string[] {
  // optionsDecodeError refused missing and unknown executors before: k6 decodes before validating.
  const found = findExecutor(raw.executor);
  if (!found)
    throw new OptionsError(
      `scenario ${name}: the ${String(raw.executor)} executor is not supported by the loadlab Node runner; run the test on k6`,
    );
  const executor: ExecutorName = found.name;
  const s: ScenarioConfig = {
    name,
    executor,
    exec: typeof raw.exec === 'string' ? raw.exec : 'default',
    execExplicit: typeof raw.exec === 'string',
    startTimeMs: raw.startTime === undefined ? 0 : duration(raw.startTime),
    gracefulStopMs: raw.gracefulStop === undefined ? 30_000 : duration(raw.gracefulStop),
    env: Object.fromEntries(
      Object.entries((raw.env as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    tags: Object.fromEntries(
      Object.entries((raw.tags as Record<string, unknown>) ?? {}).map(([k, v]) => [k, String(v)]),
    ),
    vus: num(raw.vus, 1),
    iterations: num(raw.iterations, 1),
    maxDurationMs: raw.maxDuration === undefined ? 600_000 : duration(raw.maxDuration),
    durationMs: raw.duration === undefined ? 0 : duration(raw.duration),
    startVUs: num(raw.startVUs, 1),
    stages: stagesFrom(raw.stages),
    gracefulRampDownMs: raw.gracefulRampDown === undefined ? 30_000 : duration(raw.gracefulRampDown),
    rate: num(raw.rate, 0),
    startRate: num(raw.startRate, 0),
    timeUnitMs: raw.timeUnit === undefined ? 1000 : duration(raw.timeUnit),
    preAllocatedVUs: num(raw.preAllocatedVUs, -1),
    maxVUs: num(raw.maxVUs, -1),
  };
  const problems = [
    ...(name === '' ? ["scenario name can't be empty"] : []),
    ...(SCENARIO_NAME.test(name)
      ? []
      : ['the scenario name should contain only numbers, latin letters, underscores, and dashes']),
    ...(raw.exec === '' ? ['exec value cannot be empty'] : []),
    ...(s.startTimeMs < 0 ? ["the startTime can't be negative"] : []),
    ...(s.gracefulStopMs < 0 ? ["the gracefulStop timeout can't be negative"] : []),
    ...found.validate(s, raw),
  ];
  return problems.length ? problems : s;
}

/**
 * Every scenario and k6's validation problems of them all: one line per scenario, its problems
 * joined by ", " (k6's Options.Validate; k6 walks a Go map, so its scenarios' order varies).
 */
function validScenarios(raw: Record<string, Record<string, unknown>>): {
  scenarios: ScenarioConfig[];
  problems: string[];
} {
  const problems: string[] = [];
  const scenarios: ScenarioConfig[] = [];
  for (const [name, config] of Object.entries(raw)) {
    const result = scenarioFrom(name, config);
    if (Array.isArray(result))
      problems.push(`scenario ${name} has configuration errors: ${result.join(', ')}`);
    else scenarios.push(result);
  }
  return { scenarios, problems };
}

/** The execution options of one layer (script, K6_* env or flags) before k6 derives its scenarios. */
interface Execution {
  duration?: unknown;
  iterations?: unknown;
  stages?: unknown[];
  scenarios?: Record<string, Record<string, unknown>>;
}

const given = (v: unknown) => v !== undefined && v !== null && v !== '';

/**
 * k6's DeriveScenariosFromShortcuts: the single `default` scenario of vus/duration/iterations/stages,
 * or k6's error for shortcuts that conflict. `warn` gets k6's warnings.
 */
function deriveScenarios(
  e: Execution,
  vus: unknown,
  warn: (message: string) => void,
): Record<string, Record<string, unknown>> {
  const conflict = (a: string, b: string) =>
    new OptionsError(`using \`${a}\` and \`${b}\` options simultaneously is not allowed`);
  const hasStages = Array.isArray(e.stages) && e.stages.length > 0;
  const hasScenarios = e.scenarios !== undefined && e.scenarios !== null;
  // As k6 derives them: only what was given (exec.test.options shows the rest as null); the
  // executors' defaults (1 VU, 1 iteration) apply when the scenarios are read.
  const withVus = given(vus) ? { vus } : {};
  if (given(e.iterations)) {
    if (hasStages) throw conflict('iterations', 'stages');
    if (hasScenarios) throw conflict('iterations', 'scenarios');
    const maxDuration = given(e.duration) ? { maxDuration: e.duration } : {};
    return {
      default: { executor: 'shared-iterations', ...withVus, iterations: e.iterations, ...maxDuration },
    };
  }
  if (given(e.duration)) {
    if (hasStages) throw conflict('duration', 'stages');
    if (hasScenarios) throw conflict('duration', 'scenarios');
    if (duration(e.duration) <= 0)
      throw new OptionsError(
        '`duration` option should be more than 0, for infinite duration use the externally-controlled executor',
      );
    return { default: { executor: 'constant-vus', ...withVus, duration: e.duration } };
  }
  if (hasStages) {
    if (hasScenarios) throw conflict('stages', 'scenarios');
    return {
      default: { executor: 'ramping-vus', ...(given(vus) ? { startVUs: vus } : {}), stages: e.stages },
    };
  }
  if (hasScenarios && Object.keys(e.scenarios!).length > 0) return e.scenarios!;
  if (given(vus) && Number(vus) !== 1)
    warn(
      `\`vus=${Number(vus)}\` option will be ignored, it only works in conjunction with \`iterations\`, \`duration\`, or \`stages\``,
    );
  if (Array.isArray(e.stages))
    warn('`stages` was explicitly set to an empty value, running the script with 1 iteration in 1 VU');
  if (hasScenarios)
    warn('`scenarios` was explicitly set to an empty value, running the script with 1 iteration in 1 VU');
  return { default: { executor: 'per-vu-iterations' } };
}

/** A K6_* integer as k6's envconfig reads it, or its error. */
function envInt(env: Record<string, string | undefined>, name: string, field: string): number | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  if (!/^[+-]?\d+$/.test(text))
    throw new OptionsError(
      envconfigError(
        name,
        field,
        text,
        'null.Int',
        `strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
      ),
    );
  return Number(text);
}

/**
 * A K6_* boolean option as k6's envconfig reads it into a null.Bool (guregu/null): only `true` and
 * `false`, `null` and '' leave it unset; anything else is its error.
 */
function envNullBool(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
): boolean | undefined {
  const text = env[name];
  if (text === undefined || text === '' || text === 'null') return undefined;
  if (text === 'true' || text === 'false') return text === 'true';
  throw new OptionsError(envconfigError(name, field, text, 'null.Bool', `invalid input:${text}`));
}

/** A K6_* string option: envconfig takes it as it is (null.String). */
function envNullString(env: Record<string, string | undefined>, name: string): string | undefined {
  const text = env[name];
  return text === undefined || text === '' ? undefined : text;
}

/** A K6_* list as k6 reads a system tag set: comma-separated, each name trimmed; set but empty is none. */
function envNameList(env: Record<string, string | undefined>, name: string): string[] | undefined {
  const text = env[name];
  return text === undefined ? undefined : text.split(',').map((item) => item.trim());
}

/**
 * The options k6's envconfig reads from K6_* besides the execution shortcuts and dns, in the order
 * of k6's Options struct (the first that does not parse is the error): [option, variable, field, reader].
 */
const ENV_OPTIONS: [
  option: string,
  variable: string,
  field: string,
  read: (
    env: Record<string, string | undefined>,
    variable: string,
    field: string,
  ) => boolean | number | string | string[] | undefined,
][] = [
  ['noSetup', 'K6_NO_SETUP', 'NoSetup', envNullBool],
  ['noTeardown', 'K6_NO_TEARDOWN', 'NoTeardown', envNullBool],
  ['maxRedirects', 'K6_MAX_REDIRECTS', 'MaxRedirects', envInt],
  ['userAgent', 'K6_USER_AGENT', 'UserAgent', envNullString],
  ['batch', 'K6_BATCH', 'Batch', envInt],
  ['batchPerHost', 'K6_BATCH_PER_HOST', 'BatchPerHost', envInt],
  ['insecureSkipTLSVerify', 'K6_INSECURE_SKIP_TLS_VERIFY', 'InsecureSkipTLSVerify', envNullBool],
  ['throw', 'K6_THROW', 'Throw', envNullBool],
  ['blacklistIPs', 'K6_BLACKLIST_IPS', 'BlacklistIPs', envCidrList],
  ['blockHostnames', 'K6_BLOCK_HOSTNAMES', 'BlockedHostnames', envHostnamePatterns],
  ['noConnectionReuse', 'K6_NO_CONNECTION_REUSE', 'NoConnectionReuse', envNullBool],
  ['noVUConnectionReuse', 'K6_NO_VU_CONNECTION_REUSE', 'NoVUConnectionReuse', envNullBool],
  ['minIterationDuration', 'K6_MIN_ITERATION_DURATION', 'MinIterationDuration', envDuration],
  ['systemTags', 'K6_SYSTEM_TAGS', 'SystemTags', envNameList],
  ['noCookiesReset', 'K6_NO_COOKIES_RESET', 'NoCookiesReset', envNullBool],
  ['discardResponseBodies', 'K6_DISCARD_RESPONSE_BODIES', 'DiscardResponseBodies', envNullBool],
];

/** K6_BLACKLIST_IPS: comma-separated ranges (set but empty: none), each as Go's net.ParseCIDR reads it. */
function envCidrList(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
): string[] | undefined {
  const text = env[name];
  if (text === undefined) return undefined;
  const items = text === '' ? [] : text.split(',');
  const parsed = IpBlacklist.parse(items);
  if ('refused' in parsed)
    throw new OptionsError(envconfigError(name, field, text, '[]*lib.IPNet', cidrRefusal(parsed.refused)));
  return items;
}

/** K6_BLOCK_HOSTNAMES: comma-separated patterns (empty: unset), each checked as k6 checks them. */
function envHostnamePatterns(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
): string[] | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  const items = text.split(',');
  const parsed = HostnameBlocklist.parse(items);
  if (typeof parsed === 'string')
    throw new OptionsError(envconfigError(name, field, text, 'types.NullHostnameTrie', parsed));
  return items;
}

/**
 * k6's options the runner does not carry out yet, with their K6_* variable: a run that sets one is
 * warned that it is ignored, rather than quietly differing from k6 (their flags are refused).
 */
const IGNORED_OPTIONS: [option: string, variable: string][] = [
  ['paused', 'K6_PAUSED'],
  ['rps', 'K6_RPS'],
  ['httpDebug', 'K6_HTTP_DEBUG'],
  ['tlsCipherSuites', 'K6_TLS_CIPHER_SUITES'],
  ['tlsVersion', 'K6_TLS_VERSION'],
  ['tlsAuth', 'K6_TLSAUTH'],
  ['consoleOutput', 'K6_CONSOLE_OUTPUT'],
  ['localIPs', 'K6_LOCAL_IPS'],
];

/** A script option's value that asks for something: not unset, false, zero, '' or empty. */
function asksForSomething(value: unknown): boolean {
  if (value === undefined || value === null || value === false || value === 0 || value === '') return false;
  if (Array.isArray(value)) return value.length > 0;
  if (typeof value === 'object') return Object.keys(value).length > 0;
  return true;
}

/** One warning per ignored option the script or K6_* sets. */
function ignoredOptionWarnings(
  script: Record<string, unknown>,
  env: Record<string, string | undefined>,
): string[] {
  return IGNORED_OPTIONS.filter(
    ([option, variable]) => asksForSomething(script[option]) || (env[variable] ?? '') !== '',
  ).map(
    ([option, variable]) =>
      `the loadlab Node runner does not carry out the ${option} option (or ${variable}) yet and ignores it: ` +
      'run the test on k6 where it matters',
  );
}

/** The options set by K6_* variables (ENV_OPTIONS), by option name. */
function optionsFromEnv(
  env: Record<string, string | undefined>,
): Record<string, boolean | number | string | string[]> {
  const options: Record<string, boolean | number | string | string[]> = {};
  for (const [option, name, field, read] of ENV_OPTIONS) {
    const value = read(env, name, field);
    if (value !== undefined) options[option] = value;
  }
  return options;
}

/** The runtime options k6 reads from K6_* booleans before it loads the script. */
const RUNTIME_BOOL_ENVS = ['K6_INCLUDE_SYSTEM_ENV_VARS', 'K6_NO_THRESHOLDS', 'K6_NO_SUMMARY'] as const;

/** A runtime option's K6_* boolean, set (even empty) or not; checked first by runtimeEnvError(). */
function envRuntimeBool(env: Record<string, string | undefined>, name: (typeof RUNTIME_BOOL_ENVS)[number]) {
  const text = env[name];
  return text === undefined ? undefined : goParseBool(text);
}

/** Whether __ENV holds the process's environment: --include-system-env-vars, else K6_*, else yes. */
export function includesSystemEnv(env: Record<string, string | undefined>, flags: RunFlags): boolean {
  return flags.includeSystemEnvVars ?? envRuntimeBool(env, 'K6_INCLUDE_SYSTEM_ENV_VARS') ?? true;
}

/**
 * k6's error for a runtime option's K6_* boolean it cannot parse (set but empty included), which it
 * reports before the script runs, as a plain error (exit 255); undefined when they all parse.
 */
export function runtimeEnvError(env: Record<string, string | undefined>): string | undefined {
  for (const name of RUNTIME_BOOL_ENVS) {
    const text = env[name];
    if (text !== undefined && goParseBool(text) === undefined)
      return `env var '${name}' is not a valid boolean value: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`;
  }
  return undefined;
}

/** A K6_* duration as k6's envconfig reads it, or its error. */
function envDuration(
  env: Record<string, string | undefined>,
  name: string,
  field: string,
): string | undefined {
  const text = env[name];
  if (text === undefined || text === '') return undefined;
  try {
    duration(text);
  } catch (error) {
    throw new OptionsError(envconfigError(name, field, text, 'types.NullDuration', (error as Error).message));
  }
  return text;
}

const STATIC_TREND_STATS = new Set(['avg', 'min', 'med', 'max', 'count']);

/** A summary trend column as k6 accepts it (metrics.GetResolversForTrendColumns), or k6's error. */
function validateTrendStat(stat: string): void {
  if (STATIC_TREND_STATS.has(stat)) return;
  if (!stat.startsWith('p(') || !stat.endsWith(')')) {
    throw new OptionsPlainError(`invalid trend stat '${stat}', unknown format`);
  }
  const inner = stat.slice(2, -1);
  const percentile = Number(inner);
  if (inner.trim() === '' || !Number.isFinite(percentile) || percentile < 0 || percentile > 100) {
    throw new OptionsPlainError(
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

/** The script's dns fields k6 reads as text (a ttl of another type was refused or reads as none). */
function dnsFieldsOf(dns: unknown): DnsFields {
  const fields: DnsFields = {};
  if (dns === null || typeof dns !== 'object') return fields;
  for (const key of ['ttl', 'select', 'policy'] as const) {
    const value = (dns as Record<string, unknown>)[key];
    if (typeof value === 'string') fields[key] = value;
  }
  return fields;
}

/** k6's parseTTL error for a ttl it cannot read, or undefined. */
function dnsTtlError(ttl: string | undefined): string | undefined {
  return ttl !== undefined && dnsTtlMs(ttl) === undefined ? `invalid DNS TTL: ${ttl}` : undefined;
}

export function consolidate(
  script: Record<string, unknown>,
  env: Record<string, string | undefined>,
  flags: RunFlags,
  isExported?: (name: string) => boolean,
): TestConfig {
  const decodeError = optionsDecodeError(script);
  if (decodeError) throw new OptionsLoadError(decodeError);
  // Decoded with the script, so refused before K6_* or a flag could replace it.
  if (given(script.minIterationDuration)) duration(script.minIterationDuration);
  // k6's runner reads the dns ttl once the options are decoded (SetOptions), before their validation.
  const scriptDns = dnsFieldsOf(script.dns);
  const ttlRefused = dnsTtlError(scriptDns.ttl);
  if (ttlRefused) throw new OptionsLoadError(ttlRefused, true);
  // k6 reads its flags before its environment (an empty --dns is no flag).
  const flagDns = flags.dns ? dnsFromText(flags.dns) : undefined;
  if (flagDns instanceof Error) throw new OptionsPlainError(flagDns.message);
  refuseExecutionSegments(script, env, flags);
  const warnings: string[] = ignoredOptionWarnings(script, env);
  const fromEnv: Execution & { vus?: number } = {
    vus: envInt(env, 'K6_VUS', 'VUs'),
    duration: envDuration(env, 'K6_DURATION', 'Duration'),
    iterations: envInt(env, 'K6_ITERATIONS', 'Iterations'),
    stages: env.K6_STAGES ? env.K6_STAGES.split(',').map(cliStage) : undefined,
  };
  const fromEnvOptions = optionsFromEnv(env);
  const envDns = env.K6_DNS === undefined ? undefined : dnsFromText(env.K6_DNS);
  if (envDns instanceof Error) throw new OptionsError(envDnsError(env.K6_DNS!, envDns));
  const flagDurationError = flags.duration === undefined ? undefined : goDurationError(flags.duration);
  if (flagDurationError)
    throw new OptionsPlainError(
      `invalid argument ${JSON.stringify(flags.duration)} for "-d, --duration" flag: ${flagDurationError}`,
    );
  const fromCli: Execution & { vus?: number } = {
    vus: flags.vus,
    duration: flags.duration,
    iterations: flags.iterations,
    stages: flags.stages.length ? flags.stages.map(cliStage) : undefined,
  };
  // A layer that sets duration, iterations or stages replaces the execution options below it (k6's
  // consolidation: script < K6_* env < flags).
  let execution: Execution = {
    duration: script.duration,
    iterations: script.iterations,
    stages: script.stages as unknown[] | undefined,
    scenarios: script.scenarios as Execution['scenarios'],
  };
  for (const layer of [fromEnv, fromCli])
    if (given(layer.duration) || given(layer.iterations) || layer.stages !== undefined)
      execution = { duration: layer.duration, iterations: layer.iterations, stages: layer.stages };
  const vus = fromCli.vus ?? fromEnv.vus ?? script.vus;
  const scenariosRaw = deriveScenarios(execution, vus, (w) => warnings.push(w));
  const { scenarios, problems } = validScenarios(scenariosRaw);
  const setupTimeoutMs = script.setupTimeout === undefined ? 60_000 : duration(script.setupTimeout);
  if (given(script.setupTimeout) && setupTimeoutMs <= 0) problems.push('setupTimeout must be positive');
  // k6 checks every scenario's exec, those with other problems too.
  if (isExported)
    for (const [name, raw] of Object.entries(scenariosRaw))
      if (typeof raw.exec === 'string' && raw.exec !== '' && !isExported(raw.exec))
        problems.push(`executor ${name}: function '${raw.exec}' not found in exports`);
  if (problems.length) throw validationError(problems);
  // k6 applies the consolidated dns to its runner after the validation: a plain error there.
  const dns = mergeDns(scriptDns, envDns, flagDns);
  const mergedTtlRefused = flagDns || envDns ? dnsTtlError(dns.ttl) : undefined;
  if (mergedTtlRefused) throw new OptionsPlainError(mergedTtlRefused);

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
    (envRuntimeBool(env, 'K6_NO_SUMMARY')
      ? 'disabled'
      : (envMode as TestConfig['summaryMode'] | undefined)) ??
    'compact';
  // --tag replaces the script's options.tags as a whole, as k6 consolidates its options.
  const runTags = Object.keys(flags.tags).length
    ? { ...flags.tags }
    : { ...((script.tags as Record<string, string>) ?? {}) };
  const options: Record<string, unknown> = { ...script, scenarios: scenariosRaw };
  for (const k of ['vus', 'duration', 'iterations', 'stages']) delete options[k];
  if (trendStats) options.summaryTrendStats = trendStats;
  // As exec.test.options shows k6's DNSConfig: its three fields, null where none is set.
  options.dns = { ttl: dns.ttl ?? null, select: dns.select ?? null, policy: dns.policy ?? null };
  if (Object.keys(runTags).length) options.tags = runTags;
  // The flags' options over K6_*'s over the script's, as exec.test.options and the modules see them.
  Object.assign(options, fromEnvOptions, flags.options);
  // As k6 shows its blacklist: each range as Go writes a network.
  if (Array.isArray(options.blacklistIPs)) {
    const ranges = IpBlacklist.parse(options.blacklistIPs.map(String));
    if (!('refused' in ranges)) options.blacklistIPs = ranges.shown();
  }
  // As k6 shows its NullHosts: lower-cased patterns, addresses as Go writes them.
  if (options.hosts && typeof options.hosts === 'object') {
    const table = HostsTable.parse(options.hosts as Record<string, string>);
    if (typeof table !== 'string') options.hosts = table.shown();
  }
  // As k6 shows its NullDuration, and as the VUs read it (vu/min-iteration.ts).
  if (given(options.minIterationDuration))
    options.minIterationDuration = formatDuration(duration(options.minIterationDuration));
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
    noThresholds:
      flags.noThresholds || envRuntimeBool(env, 'K6_NO_THRESHOLDS') === true || script.noThresholds === true,
    // As k6 consolidates them: the flag, else K6_*, else the script's option.
    noSetup: options.noSetup === true,
    noTeardown: options.noTeardown === true,
    runTags,
    outs: flags.outs.length > 0 ? flags.outs : outs,
    setupTimeoutMs,
    teardownTimeoutMs: script.teardownTimeout === undefined ? 60_000 : duration(script.teardownTimeout),
    warnings,
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
