// k6 reads a script's exported options by encoding them as indented JSON and decoding that into its
// Go Options struct (internal/js/bundle.go). What that decoding refuses (a wrong type, an unknown
// executor, a bad duration) k6 reports as "could not load JS test": this finds the first such error
// and words it as k6 v1.3 does, Go's json package and the line of the JSON text included.
import { DurationError, parseDuration } from '../metrics/index.js';
import { dnsEnumError } from './dns-option.js';
import { HostsTable } from '../host/hosts-option.js';
import { cidrRefusal, HostnameBlocklist, IpBlacklist } from '../host/blocklists.js';
import { EXECUTOR_FIELDS, SCENARIO_BASE_FIELDS } from '../bridge/scenario-fields.js';

/** A number without unit, which k6's ParseExtendedDuration takes as milliseconds (strconv.ParseFloat). */
export const BARE_NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i;

/** Where a value sits in the encoded text: [start, end) byte offsets (the options are ASCII-safe). */
interface Encoded {
  text: string;
  spans: Map<unknown, [number, number]>;
}

/** Go's string escaping in JSON: JSON's own plus <, >, & and the two JS line separators. */
const goString = (s: string): string =>
  JSON.stringify(s).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** json.MarshalIndent(v, "", "  ") of a JS value as Go sees it: map keys sorted, undefined as null. */
function encode(value: unknown): Encoded {
  const spans = new Map<unknown, [number, number]>();
  let text = '';
  const write = (v: unknown, indent: string): void => {
    const start = text.length;
    if (Array.isArray(v) || (v !== null && typeof v === 'object')) {
      const entries: [string | undefined, unknown][] = Array.isArray(v)
        ? v.map((e) => [undefined, e])
        : Object.keys(v as object)
            .sort()
            .map((k) => [k, (v as Record<string, unknown>)[k]]);
      const [open, close] = Array.isArray(v) ? ['[', ']'] : ['{', '}'];
      if (entries.length === 0) text += open + close;
      else {
        text += open;
        entries.forEach(([key, child], i) => {
          text += `${i ? ',' : ''}\n${indent}  ${key === undefined ? '' : `${goString(key)}: `}`;
          write(child, `${indent}  `);
        });
        text += `\n${indent}${close}`;
      }
    } else if (typeof v === 'string') text += goString(v);
    else if (typeof v === 'number' || typeof v === 'boolean') text += JSON.stringify(v);
    else text += 'null';
    if (v !== null && typeof v === 'object') spans.set(v, [start, text.length]);
  };
  write(value, '');
  return { text, spans };
}

/** Go's json.UnmarshalTypeError, at k6's Options field, `offset` in the innermost decoder's text. */
class TypeMismatch {
  /** The Options field being decoded: Go names the top-level one whatever depth it failed at. */
  field = '';
  constructor(
    readonly value: string,
    readonly goType: string,
    readonly offset: number,
  ) {}
}

/** What decoding stops at: a type mismatch, or another error in its own words. */
type Problem = TypeMismatch | string;

/** A literal as Go encodes it. */
const literal = (v: unknown): string => (typeof v === 'string' ? goString(v) : JSON.stringify(v ?? null));

/** JSON kind names as Go's decoder reports them. */
const kind = (v: unknown): string =>
  Array.isArray(v)
    ? 'array'
    : v === null
      ? 'null'
      : typeof v === 'object'
        ? 'object'
        : typeof v === 'boolean'
          ? 'bool'
          : typeof v;

const ALL_EXECUTORS = new Set(Object.keys(EXECUTOR_FIELDS));
const INT_FIELDS = new Set([
  'vus',
  'iterations',
  'startVUs',
  'rate',
  'startRate',
  'preAllocatedVUs',
  'maxVUs',
]);
const DURATION_FIELDS = new Set([
  'duration',
  'maxDuration',
  'startTime',
  'gracefulStop',
  'gracefulRampDown',
  'timeUnit',
]);

/** Go's type of k6's DNSConfig.UnmarshalJSON target, as its decoding errors name it. */
const DNS_CONFIG_TYPE =
  'struct { TTL null.String "json:\\"ttl\\""; Select types.NullDNSSelect "json:\\"select\\""; Policy types.NullDNSPolicy "json:\\"policy\\"" }';

/** reflect.TypeOf(v).Name() of what Go's json decodes a JSON value into (a slice's type has no name). */
const goValueTypeName = (v: unknown): string =>
  Array.isArray(v) ? '' : typeof v === 'boolean' ? 'bool' : typeof v === 'number' ? 'float64' : 'string';

/**
 * Checks one value the way Go decodes it; `base` is where the innermost custom UnmarshalJSON's text
 * starts (k6's null.Int, types.NullDuration, scenarios, stages unmarshal their own slice of the
 * text, and Go reports offsets within that slice).
 */
class Decoder {
  constructor(private readonly encoded: Encoded) {}

  private span(v: unknown): [number, number] {
    return this.encoded.spans.get(v) ?? [0, 0];
  }

  /** Where the literal `v` of `holder[key]` ends: Go reports a literal's mismatch there. */
  private literalEnd(holder: object, key: string | number): number {
    const [start, end] = this.span(holder);
    const slice = this.encoded.text.slice(start, end);
    const rendered = literal((holder as Record<string, unknown>)[key]);
    // Find the literal after its key (objects) or count elements (arrays) in the holder's text.
    if (Array.isArray(holder)) {
      let at = 1;
      for (let i = 0; i <= Number(key); i++) {
        const item = holder[i] as unknown;
        const itemText =
          item !== null && typeof item === 'object'
            ? this.encoded.text.slice(...this.span(item))
            : literal(item);
        at = slice.indexOf(itemText, at) + itemText.length;
      }
      return start + at;
    }
    const marker = `${goString(String(key))}: `;
    // The key at this object's own depth: its children are indented as its first line after '{'.
    const indent = /\n( *)/.exec(slice)?.[1] ?? '';
    const from = slice.indexOf(`\n${indent}${marker}`, 0);
    return start + from + 1 + indent.length + marker.length + rendered.length;
  }

  /** Where the text of `holder[key]` starts: a custom UnmarshalJSON's base. */
  private startOf(holder: object, key: string | number): number {
    const v = (holder as Record<string, unknown>)[key];
    return v !== null && typeof v === 'object'
      ? this.span(v)[0]
      : this.literalEnd(holder, key) - literal(v).length;
  }

  /** A value of the wrong JSON kind for `goType`. */
  private mismatch(
    holder: object,
    key: string | number,
    goType: string,
    base: number,
    value?: string,
  ): TypeMismatch {
    const child = (holder as Record<string, unknown>)[key];
    const offset =
      child !== null && typeof child === 'object' ? this.span(child)[0] + 1 : this.literalEnd(holder, key);
    return new TypeMismatch(value ?? kind(child), goType, offset - base);
  }

  /** null.Int: an integer, or a string of one; its own text is the base. */
  int(holder: object, key: string | number): Problem | undefined {
    const v = (holder as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    if (typeof v === 'string') {
      if (v === '' || /^[+-]?\d+$/.test(v)) return undefined;
      return `strconv.ParseInt: parsing ${goString(v)}: invalid syntax`;
    }
    if (typeof v === 'number' && !Number.isInteger(v)) {
      const text = JSON.stringify(v);
      return new TypeMismatch(`number ${text}`, 'int64', text.length);
    }
    return undefined;
  }

  /** types.NullDuration: a Go (or k6 `d`) duration string, or milliseconds. */
  duration(v: unknown): Problem | undefined {
    if (typeof v !== 'string' || v === '') return undefined;
    try {
      // k6 reads a bare number as milliseconds (ParseExtendedDuration), then Go's signed durations.
      if (!BARE_NUMBER.test(v)) parseDuration(v);
      return undefined;
    } catch (error) {
      return (error as DurationError).message;
    }
  }

  /** A plain map[string]string (tags, env): any non-string value is a mismatch at `base`. */
  stringMap(holder: object, key: string, goType: string, base: number): Problem | undefined {
    const v = (holder as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v) || typeof v !== 'object') return this.mismatch(holder, key, goType, base);
    for (const k of Object.keys(v).sort()) {
      const item = (v as Record<string, unknown>)[k];
      if (item !== null && typeof item !== 'string') return this.mismatch(v, k, 'string', base);
    }
    return undefined;
  }

  /** A plain []string (summaryTrendStats) or a custom one (systemTags, its own text the base). */
  stringList(holder: object, key: string, custom: boolean, goType = '[]string'): Problem | undefined {
    const v = (holder as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    const base = custom ? this.startOf(holder, key) : 0;
    if (!Array.isArray(v)) return this.mismatch(holder, key, goType, base);
    for (let i = 0; i < v.length; i++)
      if (v[i] !== null && typeof v[i] !== 'string') return this.mismatch(v, i, 'string', base);
    return undefined;
  }

  /** blockHostnames (a custom []string) and blacklistIPs ([]*lib.IPNet), then each item as k6 reads it. */
  blocklist(o: Record<string, unknown>, key: 'blockHostnames' | 'blacklistIPs'): Problem | undefined {
    const hostnames = key === 'blockHostnames';
    const problem = this.stringList(o, key, hostnames, hostnames ? '[]string' : '[]*lib.IPNet');
    const v = o[key];
    if (problem || !Array.isArray(v)) return problem;
    if (hostnames) {
      const parsed = HostnameBlocklist.parse(v.map(String));
      return typeof parsed === 'string' ? parsed : undefined;
    }
    const parsed = IpBlacklist.parse(v.map(String));
    return 'refused' in parsed ? cidrRefusal(parsed.refused) : undefined;
  }

  /** lib.Stage, each one decoded by its own UnmarshalJSON: a duration and an int target. */
  stages(holder: object, key: string): Problem | undefined {
    const v = (holder as Record<string, unknown>)[key];
    if (v === undefined || v === null) return undefined;
    if (!Array.isArray(v)) return this.mismatch(holder, key, '[]lib.Stage', 0);
    for (const stage of v) {
      if (stage === null || typeof stage !== 'object' || Array.isArray(stage)) continue;
      const s = stage as Record<string, unknown>;
      const problem = this.duration(s.duration) ?? this.int(s, 'target');
      if (problem) return problem;
    }
    return undefined;
  }

  /** One scenario's config, decoded strictly by its executor's struct (the scenario's text the base). */
  scenarioFields(config: Record<string, unknown>, executor: string): Problem | undefined {
    const known = new Set([...SCENARIO_BASE_FIELDS, ...EXECUTOR_FIELDS[executor]!]);
    const base = this.span(config)[0];
    for (const field of Object.keys(config).sort()) {
      if (!known.has(field)) return `json: unknown field ${goString(field)}`;
      const problem = INT_FIELDS.has(field)
        ? this.int(config, field)
        : DURATION_FIELDS.has(field)
          ? this.duration(config[field])
          : field === 'env' || field === 'tags'
            ? this.stringMap(config, field, 'map[string]string', base)
            : field === 'stages'
              ? this.stages(config, field)
              : undefined;
      if (problem) return problem;
    }
    return undefined;
  }

  /** lib.ScenarioConfigs' UnmarshalJSON: every executor type first, then each scenario's config. */
  scenarios(holder: Record<string, unknown>): Problem | undefined {
    const v = holder.scenarios;
    if (v === undefined || v === null) return undefined;
    const protoType = 'map[string]lib.protoExecutorConfig';
    if (Array.isArray(v) || typeof v !== 'object') {
      return this.mismatch(holder, 'scenarios', protoType, this.startOf(holder, 'scenarios'));
    }
    const scenarios = v as Record<string, unknown>;
    const names = Object.keys(scenarios).sort();
    for (const name of names) {
      const config = scenarios[name];
      if (config === null || typeof config !== 'object' || Array.isArray(config)) continue;
      const executor = (config as Record<string, unknown>).executor;
      if (executor !== undefined && executor !== null && typeof executor !== 'string')
        return this.mismatch(config, 'executor', 'string', this.span(config)[0]);
    }
    for (const name of names) {
      const config = (scenarios[name] ?? {}) as Record<string, unknown>;
      const executor = config.executor as string | undefined;
      if (!executor) return `scenario '${name}' doesn't have a specified executor type`;
      if (!ALL_EXECUTORS.has(executor)) return `unknown executor type '${executor}'`;
      const problem = this.scenarioFields(config, executor);
      if (problem) return problem;
    }
    return undefined;
  }

  /** The Options fields the runner reads, in the order Go meets them (sorted keys). */
  options(o: Record<string, unknown>): Problem | undefined {
    for (const key of Object.keys(o).sort()) {
      let problem: Problem | undefined;
      if (key === 'vus' || key === 'iterations') problem = this.int(o, key);
      else if (key === 'duration' || key === 'setupTimeout' || key === 'teardownTimeout')
        problem = this.duration(o[key]);
      else if (key === 'stages') problem = this.stages(o, key);
      else if (key === 'scenarios') problem = this.scenarios(o);
      else if (key === 'tags') problem = this.stringMap(o, key, 'map[string]string', 0);
      else if (key === 'summaryTrendStats') problem = this.stringList(o, key, false);
      else if (key === 'systemTags') problem = this.stringList(o, key, true);
      else if (key === 'thresholds') problem = this.thresholds(o);
      else if (key === 'dns') problem = this.dns(o);
      else if (key === 'hosts') problem = this.hosts(o);
      else if (key === 'blockHostnames' || key === 'blacklistIPs') problem = this.blocklist(o, key);
      if (problem instanceof TypeMismatch) problem.field = key;
      if (problem) return problem;
    }
    return undefined;
  }

  /**
   * types.DNSConfig's UnmarshalJSON, on its own text: ttl a null.String (whose own error names the
   * value's Go type), select and policy k6's enums (a string of their names, each decoded alone).
   */
  dns(o: Record<string, unknown>): Problem | undefined {
    const v = o.dns;
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v) || typeof v !== 'object')
      return this.mismatch(o, 'dns', DNS_CONFIG_TYPE, this.startOf(o, 'dns'));
    const config = v as Record<string, unknown>;
    for (const key of Object.keys(config).sort()) {
      const value = config[key];
      if (value === undefined || value === null) continue;
      const isObject = typeof value === 'object' && !Array.isArray(value);
      // An object as ttl is read as Go's sql.NullString, which takes any object.
      if (key === 'ttl' && typeof value !== 'string' && !isObject)
        return `json: cannot unmarshal ${goValueTypeName(value)} into Go value of type null.String`;
      if (key !== 'select' && key !== 'policy') continue;
      if (typeof value !== 'string') return this.mismatch(config, key, 'string', this.startOf(config, key));
      const refused = dnsEnumError(key, value);
      if (refused) return refused;
    }
    return undefined;
  }

  /**
   * types.NullHosts' UnmarshalJSON, on its own text: a map of strings, then each address's port and
   * each pattern as k6 reads them (host/hosts-option.ts).
   */
  hosts(o: Record<string, unknown>): Problem | undefined {
    const problem = this.stringMap(o, 'hosts', 'map[string]string', this.startOf(o, 'hosts'));
    if (problem || o.hosts === undefined || o.hosts === null) return problem;
    const table = HostsTable.parse(o.hosts as Record<string, string>);
    return typeof table === 'string' ? table : undefined;
  }

  /** map[string]metrics.Thresholds, each decoded by its own UnmarshalJSON as a list. */
  thresholds(o: Record<string, unknown>): Problem | undefined {
    const v = o.thresholds;
    if (v === undefined || v === null) return undefined;
    if (Array.isArray(v) || typeof v !== 'object')
      return this.mismatch(o, 'thresholds', 'map[string]metrics.Thresholds', 0);
    for (const metric of Object.keys(v).sort()) {
      const list = (v as Record<string, unknown>)[metric];
      if (list === null || Array.isArray(list)) continue;
      return this.mismatch(v, metric, '[]metrics.thresholdConfig', this.startOf(v, metric));
    }
    return undefined;
  }
}

/**
 * k6's beautifyOptionsJSONUnmarshalError: the JSON text from the line the error's offset is on up to
 * that offset (Go's offset is within the innermost decoder's text, yet k6 cuts the whole text with it).
 */
function lineBefore(text: string, offset: number): string {
  const previous = Math.max(text.lastIndexOf('\n', offset - 1), 0);
  const nextRelative = text.indexOf('\n', offset);
  const relative = nextRelative < 0 ? -1 : nextRelative - offset;
  const next = Math.max(Math.min(relative, text.length - 1), offset);
  return text.slice(previous, next).trim();
}

/**
 * The error k6 v1.3 stops at while decoding these exported options (after "could not load JS test
 * '<url>': "), or undefined when k6 would decode them.
 */
export function optionsDecodeError(options: Record<string, unknown>): string | undefined {
  const encoded = encode(options);
  const problem = new Decoder(encoded).options(options);
  if (problem === undefined || typeof problem === 'string') return problem;
  const quoted = JSON.stringify(lineBefore(encoded.text, problem.offset));
  return (
    `parsing options from script got error while parsing ${quoted}: json: cannot unmarshal ` +
    `${problem.value} into Go struct field Options.${problem.field} of type ${problem.goType}`
  );
}
