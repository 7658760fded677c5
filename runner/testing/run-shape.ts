// What two engines must agree on after running the same script: the shape of every output k6
// writes (summary data, check and group tree, summary files, NDJSON, InfluxDB line protocol), read
// from one run's files, and the differences between two shapes, each naming the metric and field.

export interface MetricShape {
  type: string;
  contains: string;
  values: string[];
  /** Threshold source -> passed. */
  thresholds: Record<string, boolean>;
  /** How many samples: a counter's count, a rate's passes/fails, a trend's count (when compared). */
  count?: string;
}

export interface RunShape {
  exitCode: number | null;
  /** handleSummary data: top-level, `state` and `options` keys. */
  dataKeys: string[];
  metrics: Record<string, MetricShape>;
  /** `group path :: check name` -> "passes/fails" (or "" when counts are not compared). */
  checks: Record<string, string>;
  /** Group paths of the root group's tree. */
  groups: string[];
  /** Summary files the run wrote, timestamps replaced by <ts>. */
  files: string[];
  /** NDJSON: metric -> its Metric line (type, contains, threshold sources). */
  ndjsonMetrics: Record<string, string>;
  /** NDJSON points: metric -> sorted list of tag-key sets (and tag values, when compared). */
  ndjsonTags: Record<string, string[]>;
  /** Line protocol: measurement -> sorted list of "tags: a,b | fields: x,y". */
  influx: Record<string, string[]>;
}

export interface ShapeOptions {
  /** Compare check counts, counter counts and tag values: false for scripts that pick at random. */
  counts: boolean;
}

/**
 * Metrics whose sample count is not a function of the iterations run: bytes on the wire (k6's
 * User-Agent, Go's header order), drops, and what Chromium does at its own pace (resources, vitals).
 */
const UNCOUNTABLE = /^(data_received|data_sent|dropped_iterations|browser_.*)$/;

function sampleCount(name: string, m: SummaryMetric): string | undefined {
  if (UNCOUNTABLE.test(name)) return undefined;
  if (m.type === 'counter') return String(m.values.count);
  if (m.type === 'rate') return `${m.values.passes}/${m.values.fails}`;
  if (m.type === 'trend' && 'count' in m.values) return String(m.values.count);
  return undefined;
}

/**
 * Tag values that differ by nature between runs (addresses, times, ids), and a web vital's `rating`,
 * which is the bucket its measured time falls in: on a busy machine k6 rated FCP (p95 2.78 s)
 * needs-improvement where the runner's (1.17 s) was good. The key is still compared.
 */
const VARYING_TAGS = new Set(['vu', 'iter', 'url', 'name', 'error', 'ip', 'tls_version', 'proto', 'rating']);

import { parseNdjson } from '@loadlab/k6-format/ndjson';
import type { SummaryData, SummaryGroup, SummaryMetric } from '@loadlab/k6-format/summary';

export type { SummaryData };

function walk(group: SummaryGroup, visit: (g: SummaryGroup) => void): void {
  visit(group);
  for (const g of group.groups) walk(g, visit);
}

export function summaryShape(
  data: SummaryData,
  opts: ShapeOptions,
): Pick<RunShape, 'dataKeys' | 'metrics' | 'checks' | 'groups'> {
  const dataKeys = [
    ...Object.keys(data),
    ...Object.keys(data.state ?? {}).map((k) => `state.${k}`),
    ...Object.keys(data.options ?? {}).map((k) => `options.${k}`),
  ].sort();
  const metrics: Record<string, MetricShape> = {};
  for (const [name, m] of Object.entries(data.metrics)) {
    metrics[name] = {
      type: m.type,
      contains: m.contains,
      values: Object.keys(m.values).sort(),
      thresholds: Object.fromEntries(Object.entries(m.thresholds ?? {}).map(([k, t]) => [k, t.ok])),
      ...(opts.counts && sampleCount(name, m) !== undefined ? { count: sampleCount(name, m) } : {}),
    };
  }
  const checks: Record<string, string> = {};
  const groups: string[] = [];
  walk(data.root_group, (g) => {
    groups.push(g.path);
    for (const c of g.checks) checks[`${g.path} :: ${c.name}`] = opts.counts ? `${c.passes}/${c.fails}` : '';
  });
  return { dataKeys, metrics, checks, groups: groups.sort() };
}

export function ndjsonShape(
  text: string,
  opts: ShapeOptions,
): Pick<RunShape, 'ndjsonMetrics' | 'ndjsonTags'> {
  const ndjsonMetrics: Record<string, string> = {};
  const tags: Record<string, Set<string>> = {};
  for (const row of parseNdjson(text)) {
    if (row.type === 'Metric') {
      const thresholds = (row.data.thresholds ?? [])
        .map((t) => JSON.stringify(t))
        .sort()
        .join(' ; ');
      ndjsonMetrics[row.metric] = `${row.data.type} ${row.data.contains} [${thresholds}]`;
    } else if (row.type === 'Point') {
      const t = row.data.tags ?? {};
      const described = Object.keys(t)
        .sort()
        .map((k) => (opts.counts && !VARYING_TAGS.has(k) ? `${k}=${t[k]}` : k))
        .join(',');
      (tags[row.metric] ??= new Set()).add(described);
    }
  }
  const ndjsonTags = Object.fromEntries(Object.entries(tags).map(([m, s]) => [m, [...s].sort()]));
  return { ndjsonMetrics, ndjsonTags };
}

/** Splits on `sep` where it is not escaped with a backslash (line protocol's escaping). */
function splitUnescaped(text: string, sep: string): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    if (ch === '\\' && i + 1 < text.length) {
      current += ch + text[i + 1];
      i++;
    } else if (ch === '"') {
      quoted = !quoted;
      current += ch;
    } else if (ch === sep && !quoted) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts;
}

export function lineProtocolShape(text: string): RunShape['influx'] {
  const seen: Record<string, Set<string>> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const [series = '', fieldSet = ''] = splitUnescaped(line, ' ');
    const [measurement = '', ...tagPairs] = splitUnescaped(series, ',');
    const tagKeys = tagPairs.map((p) => p.split('=')[0]).sort();
    const fieldKeys = splitUnescaped(fieldSet, ',')
      .map((p) => p.split('=')[0])
      .sort();
    (seen[measurement] ??= new Set()).add(`tags: ${tagKeys.join(',')} | fields: ${fieldKeys.join(',')}`);
  }
  return Object.fromEntries(Object.entries(seen).map(([m, s]) => [m, [...s].sort()]));
}

/** "<ts>" for the ISO-like timestamps the suite puts in file names. */
export function normalizeFileName(name: string): string {
  return name.replace(/\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ/g, '<ts>');
}

function keyedDiff<T>(
  what: string,
  a: Record<string, T>,
  b: Record<string, T>,
  names: [string, string],
  detail: (key: string, x: T, y: T) => string[],
): string[] {
  const out: string[] = [];
  for (const key of [...new Set([...Object.keys(a), ...Object.keys(b)])].sort()) {
    if (!(key in b)) out.push(`${what} ${key}: only on ${names[0]}`);
    else if (!(key in a)) out.push(`${what} ${key}: only on ${names[1]}`);
    else out.push(...detail(key, a[key]!, b[key]!));
  }
  return out;
}

const show = (v: unknown) => (typeof v === 'string' ? v : JSON.stringify(v));

function listDiff(what: string, a: string[], b: string[], names: [string, string]): string[] {
  const onlyA = a.filter((x) => !b.includes(x));
  const onlyB = b.filter((x) => !a.includes(x));
  return [
    ...onlyA.map((x) => `${what}: ${x} only on ${names[0]}`),
    ...onlyB.map((x) => `${what}: ${x} only on ${names[1]}`),
  ];
}

/** Every difference between two runs' shapes, one line each naming the metric (or file) and field. */
export function diffShapes(a: RunShape, b: RunShape, names: [string, string] = ['k6', 'runner']): string[] {
  const field = (key: string, name: string, x: unknown, y: unknown) =>
    JSON.stringify(x) === JSON.stringify(y)
      ? []
      : [`metric ${key}: ${name} ${names[0]}=${show(x)} ${names[1]}=${show(y)}`];
  return [
    ...(a.exitCode === b.exitCode ? [] : [`exit code: ${names[0]}=${a.exitCode} ${names[1]}=${b.exitCode}`]),
    ...listDiff('summary data key', a.dataKeys, b.dataKeys, names),
    ...keyedDiff('metric', a.metrics, b.metrics, names, (key, x, y) => [
      ...field(key, 'type', x.type, y.type),
      ...field(key, 'contains', x.contains, y.contains),
      ...listDiff(`metric ${key}: value key`, x.values, y.values, names),
      ...keyedDiff(`metric ${key}: threshold`, x.thresholds, y.thresholds, names, (t, p, q) =>
        p === q ? [] : [`metric ${key}: threshold ${t} ok ${names[0]}=${p} ${names[1]}=${q}`],
      ),
      ...field(key, 'count', x.count, y.count),
    ]),
    ...listDiff('group', a.groups, b.groups, names),
    ...keyedDiff('check', a.checks, b.checks, names, (key, x, y) =>
      x === y ? [] : [`check ${key}: passes/fails ${names[0]}=${x} ${names[1]}=${y}`],
    ),
    ...listDiff('summary file', a.files, b.files, names),
    ...keyedDiff('NDJSON metric', a.ndjsonMetrics, b.ndjsonMetrics, names, (key, x, y) =>
      x === y ? [] : [`NDJSON metric ${key}: Metric line ${names[0]}=${x} ${names[1]}=${y}`],
    ),
    ...keyedDiff('NDJSON points of', a.ndjsonTags, b.ndjsonTags, names, (key, x, y) =>
      listDiff(`NDJSON points of ${key}: tags`, x, y, names),
    ),
    ...keyedDiff('InfluxDB measurement', a.influx, b.influx, names, (key, x, y) =>
      listDiff(`InfluxDB measurement ${key}`, x, y, names),
    ),
  ];
}
