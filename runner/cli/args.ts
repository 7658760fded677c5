// `loadlab run` flags, named as `k6 run` names them. Parsing only; what they are (RunFlags) and mean
// lives in options/.
import { goCidrError, HostnameBlocklist, IpBlacklist } from '../host/blocklists.js';
import { goDurationError } from '../metrics/index.js';
import { goParseBool } from '../options/go-bool.js';
import { SUMMARY_MODES, type RunFlags } from '../options/run-flags.js';

export type { RunFlags };

export class UsageError extends Error {}

const VALUE_FLAGS: Record<string, string> = {
  '-u': 'vus',
  '--vus': 'vus',
  '-d': 'duration',
  '--duration': 'duration',
  '-i': 'iterations',
  '--iterations': 'iterations',
  '-s': 'stage',
  '--stage': 'stage',
  '-e': 'env',
  '--env': 'env',
  '--tag': 'tag',
  '-o': 'out',
  '--out': 'out',
  '--summary-export': 'summaryExport',
  '--summary-trend-stats': 'summaryTrendStats',
  '--summary-mode': 'summaryMode',
  '--summary-time-unit': 'summaryTimeUnit',
  '--execution-segment': 'executionSegment',
  '--execution-segment-sequence': 'executionSegmentSequence',
  '--secret-source': 'secretSource',
  '--dns': 'dns',
};

/**
 * The `k6 run` flags that set one of k6's options (options.ts reads K6_* and the script's for the
 * rest), with the type cobra reads the flag's value as and the name its errors give (the flag's own
 * unless it has a short form).
 */
const OPTION_FLAGS: Record<
  string,
  {
    option: string;
    type: 'bool' | 'int' | 'duration' | 'string' | 'strings';
    name?: string;
    /** A `strings` flag's check of each item: k6's error for one it refuses. */
    refuse?: (item: string) => string | undefined;
  }
> = {
  '--no-setup': { option: 'noSetup', type: 'bool' },
  '--no-teardown': { option: 'noTeardown', type: 'bool' },
  '--max-redirects': { option: 'maxRedirects', type: 'int' },
  '--user-agent': { option: 'userAgent', type: 'string' },
  '--batch': { option: 'batch', type: 'int' },
  '--batch-per-host': { option: 'batchPerHost', type: 'int' },
  '--insecure-skip-tls-verify': { option: 'insecureSkipTLSVerify', type: 'bool' },
  '--no-connection-reuse': { option: 'noConnectionReuse', type: 'bool' },
  '--no-vu-connection-reuse': { option: 'noVUConnectionReuse', type: 'bool' },
  '-w': { option: 'throw', type: 'bool', name: '-w, --throw' },
  '--throw': { option: 'throw', type: 'bool', name: '-w, --throw' },
  '--discard-response-bodies': { option: 'discardResponseBodies', type: 'bool' },
  '--min-iteration-duration': { option: 'minIterationDuration', type: 'duration' },
  // A string slice: each use adds its comma-separated values, untrimmed (k6 drops a name it does not know).
  '--system-tags': { option: 'systemTags', type: 'strings' },
  '--blacklist-ip': {
    option: 'blacklistIPs',
    type: 'strings',
    refuse: (item) =>
      'refused' in IpBlacklist.parse([item])
        ? `error parsing blacklist-ip '${item}': ${goCidrError(item)}`
        : undefined,
  },
  '--block-hostnames': {
    option: 'blockHostnames',
    type: 'strings',
    refuse: (item) => {
      const parsed = HostnameBlocklist.parse([item]);
      return typeof parsed === 'string' ? parsed : undefined;
    },
  },
};

function keyValue(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new UsageError(`invalid ${flag} value "${text}": expected KEY=VALUE`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** An Int64 flag as k6's cobra reads it (negative values are k6's validation's to refuse). */
function integer(text: string, flag: string): number {
  if (!/^[+-]?\d+$/.test(text))
    throw new UsageError(
      `invalid argument "${text}" for "${flag}" flag: strconv.ParseInt: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  return Number(text);
}

/** A Duration flag as cobra reads it: Go's time.ParseDuration alone (no bare number, no days). */
function goDuration(text: string, flag: string): string {
  const refused = goDurationError(text);
  if (refused)
    throw new UsageError(`invalid argument ${JSON.stringify(text)} for "${flag}" flag: ${refused}`);
  return text;
}

/** A boolean flag's `--flag=value` as cobra reads it (Go's strconv.ParseBool); true when bare. */
function booleanFlag(inline: string | undefined, flag: string): boolean {
  if (inline === undefined) return true;
  const value = goParseBool(inline);
  if (value !== undefined) return value;
  throw new UsageError(
    `invalid argument ${JSON.stringify(inline)} for "${flag}" flag: strconv.ParseBool: parsing ${JSON.stringify(inline)}: invalid syntax`,
  );
}

/** `--flag=value` (or `-f=value`) as cobra reads it: the flag and its inline value; any other argument as it is. */
export function splitInlineValue(arg: string): [flag: string, inline: string | undefined] {
  // A short flag's value after `=` too, as pflag reads `-u=2` and `-w=false`.
  if (/^-[^-]=/.test(arg)) return [arg.slice(0, 2), arg.slice(3)];
  const eq = arg.indexOf('=');
  if (!arg.startsWith('--') || eq < 0) return [arg, undefined];
  return [arg.slice(0, eq), arg.slice(eq + 1)];
}

export function parseRunArgs(argv: string[]): RunFlags {
  const flags: RunFlags = {
    script: '',
    stages: [],
    env: {},
    tags: {},
    outs: [],
    quiet: false,
    verbose: false,
    noColor: false,
    noThresholds: false,
    options: {},
    secretSources: [],
    deprecations: [],
  };
  for (let i = 0; i < argv.length; i++) {
    const [arg, inline] = splitInlineValue(argv[i]!);
    if (arg === '-q' || arg === '--quiet') flags.quiet = true;
    else if (arg === '-v' || arg === '--verbose') flags.verbose = true;
    else if (arg === '--no-color') flags.noColor = true;
    else if (arg === '--no-thresholds') flags.noThresholds = true;
    else if (arg === '--include-system-env-vars') flags.includeSystemEnvVars = booleanFlag(inline, arg);
    // The runner never reports usage: k6's opt-out is accepted, and there is nothing to turn off.
    else if (arg === '--no-usage-report') booleanFlag(inline, arg);
    else if (OPTION_FLAGS[arg]) {
      const { option, type, name = arg, refuse } = OPTION_FLAGS[arg];
      if (type === 'bool') flags.options[option] = booleanFlag(inline, name);
      else {
        const value = inline ?? argv[++i];
        if (value === undefined) throw new UsageError(`flag needs an argument: ${arg}`);
        if (type === 'strings') {
          const before = flags.options[option];
          const items = value.split(',');
          for (const item of items) {
            const refused = refuse?.(item);
            if (refused) throw new UsageError(refused);
          }
          flags.options[option] = [...(Array.isArray(before) ? before : []), ...items];
        } else if (type === 'int') flags.options[option] = integer(value, name);
        else if (type === 'duration') flags.options[option] = goDuration(value, name);
        else flags.options[option] = value;
      }
    } else if (arg === '--no-summary') {
      flags.summaryMode = 'disabled';
      flags.deprecations.push('Flag --no-summary has been deprecated, use --summary-mode=disabled instead');
    } else if (VALUE_FLAGS[arg]) {
      const value = inline ?? argv[++i];
      if (value === undefined) throw new UsageError(`flag needs an argument: ${arg}`);
      switch (VALUE_FLAGS[arg]) {
        case 'vus':
          flags.vus = integer(value, '-u, --vus');
          break;
        case 'duration':
          flags.duration = value;
          break;
        case 'iterations':
          flags.iterations = integer(value, '-i, --iterations');
          break;
        case 'stage':
          // k6 reads --stage as a string slice: `-s 5s:10,1m:20` is two stages, like two flags.
          flags.stages.push(...value.split(','));
          break;
        case 'env': {
          const [k, v] = keyValue(value, arg);
          flags.env[k] = v;
          break;
        }
        case 'tag': {
          const [k, v] = keyValue(value, arg);
          flags.tags[k] = v;
          break;
        }
        case 'out':
          flags.outs.push(value);
          break;
        case 'summaryExport':
          flags.summaryExport = value;
          break;
        case 'summaryTrendStats':
          flags.summaryTrendStats = value
            .split(',')
            .map((s) => s.trim())
            .filter(Boolean);
          break;
        case 'summaryTimeUnit':
          flags.summaryTimeUnit = value;
          break;
        case 'executionSegment':
          flags.executionSegment = value;
          break;
        case 'dns':
          flags.dns = value;
          break;
        case 'secretSource':
          flags.secretSources.push(value);
          break;
        case 'executionSegmentSequence':
          flags.executionSegmentSequence = value;
          break;
        case 'summaryMode':
          if (!(SUMMARY_MODES as readonly string[]).includes(value)) {
            throw new UsageError(
              `invalid --summary-mode "${value}": expected compact, full, legacy or disabled`,
            );
          }
          flags.summaryMode = value as RunFlags['summaryMode'];
          break;
      }
    } else if (arg.startsWith('-') && arg !== '-') {
      throw new UsageError(`unknown flag: ${arg}`);
    } else if (!flags.script) {
      flags.script = arg;
    } else {
      throw new UsageError(`unexpected argument "${arg}": one script per run`);
    }
  }
  if (!flags.script) throw new UsageError('missing script: loadlab run <script.js|.ts> [flags]');
  return flags;
}
