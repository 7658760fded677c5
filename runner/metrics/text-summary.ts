// k6 v1's end-of-test text (summary.js, compact and full modes): THRESHOLDS with observed values,
// then TOTAL RESULTS with checks and metrics grouped by category, aligned per block as k6 does.
import { HTTP_TIMING_METRICS } from './builtin.js';
import { humanizeValue } from './humanize.js';
import type { SummaryData, SummaryMetric } from './summary-types.js';
import { parseMetricKey } from './thresholds.js';

export interface TextSummaryOptions {
  mode: 'compact' | 'full' | 'legacy';
  color: boolean;
  /** Observed threshold values by metric key and aggregation (p(N) outside summaryTrendStats). */
  observations?: Record<string, Record<string, number>>;
  /** Checks in first-seen order across groups (k6 lists them so); defaults to a walk of the tree. */
  orderedChecks?: { name: string; passes: number; fails: number }[];
}

const CATEGORIES: [string, string[]][] = [
  ['HTTP', ['http_reqs', 'http_req_failed', ...HTTP_TIMING_METRICS]],
  ['EXECUTION', ['vus', 'vus_max', 'iterations', 'iteration_duration', 'dropped_iterations']],
  ['NETWORK', ['data_sent', 'data_received']],
  ['WEB_VITALS', ['browser_web_vital_']],
  ['BROWSER', ['browser_']],
  ['GRPC', ['grpc_']],
  ['WEBSOCKET', ['ws_']],
];
const HIDDEN_ALWAYS = ['checks', 'group_duration'];
// Compact mode shows http_req_duration only among the timing trends.
const HIDDEN_COMPACT = HTTP_TIMING_METRICS.filter((name) => name !== 'http_req_duration');
const ORDER = ['CUSTOM', 'HTTP', 'EXECUTION', 'NETWORK', 'BROWSER', 'WEB_VITALS', 'GRPC', 'WEBSOCKET'];

interface Palette {
  ok(s: string): string;
  bad(s: string): string;
  source(s: string): string;
  value(s: string): string;
  faint(s: string): string;
  extra(s: string): string;
  bold(s: string): string;
}

const PLAIN: Palette = {
  ok: (s) => s,
  bad: (s) => s,
  source: (s) => s,
  value: (s) => s,
  faint: (s) => s,
  extra: (s) => s,
  bold: (s) => s,
};
const wrap = (code: string) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;
const COLORED: Palette = {
  ok: wrap('32'),
  bad: wrap('31'),
  source: wrap('37'),
  value: wrap('36'),
  faint: wrap('2;37'),
  extra: wrap('2;36'),
  bold: wrap('1'),
};

/** Display width: code points, not UTF-16 units (µ, ✓ and ↳ are one column each). */
const width = (s: string) => [...s].length;
const pad = (s: string, w: number) => s + ' '.repeat(Math.max(0, w - width(s)));

function sortKeys(keys: string[]): string[] {
  return [...keys].sort((a, b) => {
    const pa = parseMetricKey(a).name;
    const pb = parseMetricKey(b).name;
    if (pa !== pb) return pa.localeCompare(pb);
    const sa = a.slice(pa.length);
    const sb = b.slice(pb.length);
    return sa === sb ? 0 : sa === '' ? -1 : sb === '' ? 1 : sa.localeCompare(sb);
  });
}

function category(name: string): string {
  for (const [title, prefixes] of CATEGORIES) if (prefixes.some((p) => name.startsWith(p))) return title;
  return 'CUSTOM';
}

function statValue(
  data: SummaryData,
  key: string,
  metric: SummaryMetric,
  aggregation: string,
  obs?: TextSummaryOptions['observations'],
): string {
  const value = metric.values[aggregation] ?? obs?.[key]?.[aggregation] ?? 0;
  if (metric.type === 'counter' && aggregation === 'rate')
    return `${humanizeValue(value, { type: 'counter', contains: 'default' })}/s`;
  if (metric.type === 'trend' && aggregation === 'count') return String(value);
  return humanizeValue(value, metric, data.options.summaryTimeUnit);
}

function thresholdLines(data: SummaryData, p: Palette, opts: TextSummaryOptions): string[] {
  const keys = sortKeys(Object.keys(data.metrics).filter((k) => data.metrics[k]!.thresholds));
  const lines: string[] = [];
  for (const key of keys) {
    const metric = data.metrics[key]!;
    const { name } = parseMetricKey(key);
    const parentHasThresholds = key !== name && data.metrics[name]?.thresholds !== undefined;
    const indent = parentHasThresholds ? '      ' : '    ';
    lines.push(indent + (parentHasThresholds ? key.slice(key.indexOf('{')) : key));
    for (const [source, state] of Object.entries(metric.thresholds!)) {
      const aggregation = source.split(/[=><]/)[0]!.trim();
      const normalized = aggregation
        .replace(/\s+/g, '')
        .replace(/^p\(([\d.]+)\)$/, (_m, n: string) => `p(${Number(n)})`);
      const mark = state.ok ? p.ok('✓') : p.bad('✗');
      lines.push(
        `${indent}${mark} ${p.source(`'${source.trim()}'`)} ${p.source(aggregation)}=${p.value(statValue(data, key, metric, normalized, opts.observations))}`,
      );
    }
    lines.push('');
  }
  return lines;
}

interface Row {
  indent: string;
  display: string;
  /** Trend: stat=value cells; others: value then extras. */
  trend?: { stat: string; value: string }[];
  value?: string;
  extras?: string[];
}

function metricRow(data: SummaryData, key: string, metric: SummaryMetric): Row {
  const { name } = parseMetricKey(key);
  const display =
    key === name ? key : `  { ${key.slice(key.indexOf('{') + 1, key.lastIndexOf('}')).trim()} }`;
  const row: Row = { indent: '    ', display };
  const fmt = (v: number) => humanizeValue(v, metric, data.options.summaryTimeUnit);
  const values = metric.values;
  switch (metric.type) {
    case 'trend':
      row.trend = data.options.summaryTrendStats.map((stat) => ({
        stat,
        value: stat === 'count' ? String(values[stat] ?? 0) : fmt(values[stat] ?? 0),
      }));
      break;
    case 'counter':
      row.value = fmt(values.count ?? 0);
      row.extras = [
        `${metric.contains === 'data' ? humanizeValue(values.rate ?? 0, metric) : humanizeValue(values.rate ?? 0, { type: 'counter', contains: 'default' })}/s`,
      ];
      break;
    case 'gauge':
      row.value = fmt(values.value ?? 0);
      row.extras = [`min=${fmt(values.min ?? 0)}`, `max=${fmt(values.max ?? 0)}`];
      break;
    case 'rate': {
      const passes = values.passes ?? 0;
      row.value = fmt(values.rate ?? 0);
      row.extras = [`${passes} out of ${passes + (values.fails ?? 0)}`];
      break;
    }
  }
  return row;
}

/** Renders rows aligned as one block: names with dots, value and extra columns padded. */
function renderBlock(rows: (Row | string)[], p: Palette): string[] {
  const metricRows = rows.filter((r): r is Row => typeof r !== 'string');
  const nameWidth = Math.max(0, ...metricRows.map((r) => width(r.indent) + width(r.display)));
  const valueWidth = Math.max(0, ...metricRows.map((r) => width(r.value ?? '')));
  const extraWidths: number[] = [];
  const statWidths = new Map<string, number>();
  for (const r of metricRows) {
    r.extras?.forEach((e, i) => (extraWidths[i] = Math.max(extraWidths[i] ?? 0, width(e))));
    r.trend?.forEach((c) => statWidths.set(c.stat, Math.max(statWidths.get(c.stat) ?? 0, width(c.value))));
  }
  return rows.map((r) => {
    if (typeof r === 'string') return r;
    const dots = Math.max(3, nameWidth - (width(r.display) + width(r.indent)) + 3);
    const head = `${r.indent}${r.display}${p.faint('.'.repeat(dots) + ':')} `;
    if (r.trend)
      return (
        head + r.trend.map((c) => `${c.stat}=${p.value(pad(c.value, statWidths.get(c.stat)!))}`).join(' ')
      );
    const extras = r.extras!.map((e, i, all) => p.extra(i === all.length - 1 ? e : pad(e, extraWidths[i]!)));
    return head + [p.value(pad(r.value!, valueWidth)), ...extras].join(' ');
  });
}

function checkLines(data: SummaryData, p: Palette, ordered?: TextSummaryOptions['orderedChecks']): string[] {
  const checks = data.metrics.checks;
  if (!checks || (checks.values.passes ?? 0) + (checks.values.fails ?? 0) === 0) return [];
  const passes = checks.values.passes ?? 0;
  const fails = checks.values.fails ?? 0;
  const total = passes + fails;
  const seconds = data.state.testRunDurationMs / 1000;
  const rows: Row[] = [
    {
      indent: '    ',
      display: 'checks_total',
      value: String(total),
      extras: [
        `${humanizeValue(seconds > 0 ? total / seconds : 0, { type: 'counter', contains: 'default' })}/s`,
      ],
    },
    {
      indent: '    ',
      display: 'checks_succeeded',
      value: humanizeValue(passes / total, { type: 'rate', contains: 'default' }),
      extras: [`${passes} out of ${total}`],
    },
    {
      indent: '    ',
      display: 'checks_failed',
      value: humanizeValue(fails / total, { type: 'rate', contains: 'default' }),
      extras: [`${fails} out of ${total}`],
    },
  ];
  const lines = [...renderBlock(rows, p), ''];
  const all: { name: string; passes: number; fails: number }[] = ordered ? [...ordered] : [];
  const walk = (group: SummaryData['root_group']): void => {
    all.push(...group.checks);
    group.groups.forEach(walk);
  };
  if (!ordered) walk(data.root_group);
  for (const c of all) {
    if (c.fails === 0) {
      lines.push(`    ${p.ok('✓')} ${c.name}`);
      continue;
    }
    lines.push(`    ${p.bad('✗')} ${c.name}`);
    const share = Math.floor((100 * c.passes) / (c.passes + c.fails));
    lines.push(`      ${p.bad(`↳  ${share}% — ✓ ${c.passes} / ✗ ${c.fails}`)}`);
  }
  lines.push('');
  return lines;
}

function totalResults(data: SummaryData, p: Palette, opts: TextSummaryOptions): string[] {
  const mode = opts.mode;
  const hidden = mode === 'compact' ? [...HIDDEN_ALWAYS, ...HIDDEN_COMPACT] : HIDDEN_ALWAYS;
  const byCategory = new Map<string, string[]>();
  for (const key of sortKeys(Object.keys(data.metrics))) {
    const { name } = parseMetricKey(key);
    if (hidden.some((h) => name.startsWith(h))) continue;
    const title = category(name);
    byCategory.set(title, [...(byCategory.get(title) ?? []), key]);
  }
  const rows: (Row | string)[] = [];
  for (const title of ORDER) {
    const keys = byCategory.get(title);
    if (!keys) continue;
    rows.push(`    ${p.bold(title)}`);
    for (const key of keys) rows.push(metricRow(data, key, data.metrics[key]!));
    rows.push('');
  }
  return [...checkLines(data, p, opts.orderedChecks), ...renderBlock(rows, p)];
}

/** The text k6 prints between a leading '\n' and a trailing '\n\n'. */
export function renderTextSummary(data: SummaryData, opts: TextSummaryOptions): string {
  const p = opts.color ? COLORED : PLAIN;
  const title = (t: string) => `  █ ${p.bold(t)} \n`;
  const pieces: string[] = [];
  const thresholds = thresholdLines(data, p, opts);
  if (thresholds.length > 0) pieces.push(title('THRESHOLDS'), ...thresholds, '\n');
  pieces.push(title('TOTAL RESULTS'), ...totalResults(data, p, opts), '\n');
  return pieces.reduce((acc, x) => acc + (x === '\n' ? x : `\n${x}`));
}
