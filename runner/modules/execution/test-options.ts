// exec.test.options as k6 v1.3 shows it: its Options struct marshalled to JSON, so every option k6
// knows is there, in the struct's order, null where none is set, and nothing else; the two lists
// that have defaults (summaryTrendStats, systemTags) show them. The runner's consolidated options
// (options/options.ts) hold only what the script, K6_* and the flags set.
import { EXECUTOR_FIELDS, SCENARIO_BASE_FIELDS } from '../../bridge/scenario-fields.js';
import { SYSTEM_TAGS } from '../../bridge/system-tags.js';

/** k6's Options fields in their JSON order (lib/options.go), as a script with no options sees them. */
const OPTION_KEYS = [
  'paused',
  'scenarios',
  'executionSegment',
  'executionSegmentSequence',
  'noSetup',
  'setupTimeout',
  'noTeardown',
  'teardownTimeout',
  'rps',
  'dns',
  'maxRedirects',
  'userAgent',
  'batch',
  'batchPerHost',
  'httpDebug',
  'insecureSkipTLSVerify',
  'tlsCipherSuites',
  'tlsVersion',
  'tlsAuth',
  'throw',
  'thresholds',
  'blacklistIPs',
  'blockHostnames',
  'hosts',
  'noConnectionReuse',
  'noVUConnectionReuse',
  'minIterationDuration',
  'ext',
  'summaryTrendStats',
  'summaryTimeUnit',
  'systemTags',
  'tags',
  'metricSamplesBufferSize',
  'noCookiesReset',
  'discardResponseBodies',
  'consoleOutput',
  'localIPs',
] as const;

const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/** Each scenario with every field of its executor's config, null where it was not given. */
function scenariosJson(scenarios: unknown): unknown {
  if (!scenarios || typeof scenarios !== 'object') return scenarios ?? null;
  const shown: Record<string, unknown> = {};
  for (const [name, raw] of Object.entries(scenarios as Record<string, Record<string, unknown>>)) {
    const own = EXECUTOR_FIELDS[String(raw.executor)];
    if (!own) {
      shown[name] = raw;
      continue;
    }
    const config: Record<string, unknown> = {};
    for (const field of [...SCENARIO_BASE_FIELDS, ...own])
      if (field !== 'options' || raw.options !== undefined) config[field] = raw[field] ?? null;
    shown[name] = config;
  }
  return shown;
}

/** k6's default system tags (metrics.DefaultSystemTagSet). */
const DEFAULT_SYSTEM_TAGS = [
  'check',
  'error',
  'error_code',
  'expected_response',
  'group',
  'method',
  'name',
  'proto',
  'scenario',
  'service',
  'status',
  'subproto',
  'tls_version',
  'url',
];

/**
 * A system tag set as k6 marshals it: the names it knows, sorted; none is null. Names it does not
 * know are dropped, as k6's SystemTagSet drops them.
 */
function systemTagsJson(given: unknown): string[] | null {
  if (!Array.isArray(given)) return DEFAULT_SYSTEM_TAGS;
  const known = [...new Set(given.map(String).filter((name) => SYSTEM_TAGS.has(name)))].sort();
  return known.length > 0 ? known : null;
}

/** A value and everything in it frozen, as k6 hands its options to the script. */
function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

/** exec.test.options from the runner's consolidated options: a new frozen object at each read, as in k6. */
export function testOptionsView(json: string): Record<string, unknown> {
  return deepFreeze(JSON.parse(json) as Record<string, unknown>);
}

/** The JSON text of exec.test.options for the runner's consolidated `options`. */
export function k6OptionsJson(options: Record<string, unknown>): string {
  const shown: Record<string, unknown> = {};
  for (const key of OPTION_KEYS) shown[key] = options[key] ?? null;
  shown.scenarios = scenariosJson(options.scenarios);
  shown.summaryTrendStats = options.summaryTrendStats ?? DEFAULT_TREND_STATS;
  shown.systemTags = systemTagsJson(options.systemTags);
  return JSON.stringify(shown);
}
