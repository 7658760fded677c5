// The building blocks of k6 v1's text summary (summary.js): colors, display widths, metric
// categories, aligned metric blocks and check blocks. A rendered part is a list of pieces joined
// as summary.js joins them: '\n' is appended as is, anything else goes on a new line.
import { HTTP_TIMING_METRICS } from '@loadlab/k6-format/http-timings';
import { humanizeValue } from './humanize.js';
import type { CheckCount } from '../metrics/sections.js';
import type { SummaryMetric } from '@loadlab/k6-format/summary';
import { parseMetricKey } from '@loadlab/k6-format/thresholds';

export interface Palette {
  ok(s: string): string;
  bad(s: string): string;
  source(s: string): string;
  value(s: string): string;
  faint(s: string): string;
  extra(s: string): string;
  bold(s: string): string;
}

export const PLAIN: Palette = {
  ok: (s) => s,
  bad: (s) => s,
  source: (s) => s,
  value: (s) => s,
  faint: (s) => s,
  extra: (s) => s,
  bold: (s) => s,
};
const wrap = (code: string) => (s: string) => `\x1b[${code}m${s}\x1b[0m`;
export const COLORED: Palette = {
  ok: wrap('32'),
  bad: wrap('31'),
  source: wrap('37'),
  value: wrap('36'),
  faint: wrap('2;37'),
  extra: wrap('2;36'),
  bold: wrap('1'),
};

/** Display width: code points, not UTF-16 units (µ, ✓ and ↳ are one column each). */
export const width = (s: string) => [...s].length;
/** summary.js RenderContext: a context at `level` indents its text by (level + 1) * 2 spaces. */
export const indentAt = (level: number) => ' '.repeat((level + 1) * 2);

/** Pieces joined as summary.js ReportBuilder.build does. */
export function joinPieces(pieces: string[]): string {
  return pieces.reduce((acc, x) => acc + (x === '\n' ? x : `\n${x}`), '');
}

/** By parent name, then by the `{…}` suffix (summary.js sortMetricsByName). */
export function sortKeys(keys: string[]): string[] {
  return [...keys].sort((a, b) => {
    const pa = parseMetricKey(a).name;
    const pb = parseMetricKey(b).name;
    if (pa !== pb) return pa.localeCompare(pb);
    const sa = a.slice(pa.length);
    const sb = b.slice(pb.length);
    return sa === sb ? 0 : sa === '' ? -1 : sb === '' ? 1 : sa.localeCompare(sb);
  });
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
/** CUSTOM first, then k6's Go struct order (data.go populateSummaryGroup). */
const CATEGORY_ORDER = [
  'CUSTOM',
  'HTTP',
  'EXECUTION',
  'NETWORK',
  'BROWSER',
  'WEB_VITALS',
  'GRPC',
  'WEBSOCKET',
];
const HIDDEN_ALWAYS = ['checks', 'group_duration'];
// Compact mode shows http_req_duration only among the timing trends.
const HIDDEN_COMPACT = HTTP_TIMING_METRICS.filter((name) => name !== 'http_req_duration');

function category(name: string): string {
  for (const [title, prefixes] of CATEGORIES) if (prefixes.some((p) => name.startsWith(p))) return title;
  return 'CUSTOM';
}

/** The metric keys a compact or full block shows (k6 matches the skipped names by prefix). */
export function visibleKeys(keys: string[], mode: 'compact' | 'full'): string[] {
  const hidden = mode === 'compact' ? [...HIDDEN_ALWAYS, ...HIDDEN_COMPACT] : HIDDEN_ALWAYS;
  return keys.filter((key) => !hidden.some((h) => parseMetricKey(key).name.startsWith(h)));
}

export interface FormatOptions {
  trendStats: string[];
  timeUnit: string;
}

interface Row {
  indent: string;
  display: string;
  /** Trend: stat=value cells; others: value then extras. */
  trend?: { stat: string; value: string }[];
  value?: string;
  extras?: string[];
}

const rateOf = (v: number) => humanizeValue(v, { type: 'rate', contains: 'default' });
const perSecond = (v: number) => `${humanizeValue(v, { type: 'counter', contains: 'default' })}/s`;

function metricRow(key: string, metric: SummaryMetric, indent: string, f: FormatOptions): Row {
  const { name } = parseMetricKey(key);
  const display =
    key === name ? key : `  { ${key.slice(key.indexOf('{') + 1, key.lastIndexOf('}')).trim()} }`;
  const row: Row = { indent, display };
  const fmt = (v: number) => humanizeValue(v, metric, f.timeUnit);
  const values = metric.values;
  switch (metric.type) {
    case 'trend':
      row.trend = f.trendStats.map((stat) => ({
        stat,
        value: stat === 'count' ? String(values[stat] ?? 0) : fmt(values[stat] ?? 0),
      }));
      break;
    case 'counter':
      row.value = fmt(values.count ?? 0);
      row.extras = [
        metric.contains === 'data'
          ? `${humanizeValue(values.rate ?? 0, metric)}/s`
          : perSecond(values.rate ?? 0),
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

/**
 * Renders rows aligned as one block: names with dots, value and extra columns padded. With
 * `dots: false` no dots are printed, as summary.js does when its report holds one metric in all.
 */
function renderBlock(rows: (Row | string)[], p: Palette, dots = true): string[] {
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
    const count = dots ? Math.max(3, nameWidth - (width(r.display) + width(r.indent)) + 3) : 0;
    const head = `${r.indent}${r.display}${p.faint('.'.repeat(count) + ':')} `;
    // Padding goes after the color codes, and only a single extra is left unpadded, as summary.js does.
    const padded = (colored: string, plain: string, w: number) => colored + ' '.repeat(w - width(plain));
    if (r.trend)
      return (
        head +
        r.trend
          .map((c) => `${c.stat}=${padded(p.value(c.value), c.value, statWidths.get(c.stat)!)}`)
          .join(' ')
      );
    const extras = r.extras!;
    const extraText =
      extras.length === 1
        ? p.extra(extras[0]!)
        : extras.map((e, i) => padded(p.extra(e), e, extraWidths[i]!)).join(' ');
    return `${head}${padded(p.value(r.value!), r.value!, valueWidth)} ${extraText}`;
  });
}

/**
 * The metrics of one section at context `level`, by category (CUSTOM first), each category a bold
 * header, its sorted metrics and a '\n'; aligned as one block (summary.js _renderMetrics).
 */
export function metricPieces(
  metrics: Record<string, SummaryMetric>,
  keys: string[],
  level: number,
  p: Palette,
  f: FormatOptions & { dots: boolean },
): string[] {
  const indent = indentAt(level + 1);
  const byCategory = new Map<string, string[]>();
  for (const key of sortKeys(keys)) {
    const title = category(parseMetricKey(key).name);
    byCategory.set(title, [...(byCategory.get(title) ?? []), key]);
  }
  const rows: (Row | string)[] = [];
  for (const title of CATEGORY_ORDER) {
    const inCategory = byCategory.get(title);
    if (!inCategory) continue;
    rows.push(`${indent}${p.bold(title)}`);
    for (const key of inCategory) rows.push(metricRow(key, metrics[key]!, indent, f));
    rows.push('\n');
  }
  return renderBlock(rows, p, f.dots);
}

export interface ChecksData {
  passes: number;
  fails: number;
  ordered: CheckCount[];
}

/**
 * checks_total, checks_succeeded and checks_failed, a '\n', one line per check, and a '\n'
 * (summary.js _renderChecks at context `level`).
 */
export function checkPieces(checks: ChecksData, seconds: number, level: number, p: Palette): string[] {
  const { passes, fails } = checks;
  const total = passes + fails;
  const indent = indentAt(level + 1);
  const rows: Row[] = [
    {
      indent,
      display: 'checks_total',
      value: String(total),
      extras: [perSecond(seconds > 0 ? total / seconds : 0)],
    },
    {
      indent,
      display: 'checks_succeeded',
      value: rateOf(total > 0 ? passes / total : 0),
      extras: [`${passes} out of ${total}`],
    },
    {
      indent,
      display: 'checks_failed',
      value: rateOf(total > 0 ? fails / total : 0),
      extras: [`${fails} out of ${total}`],
    },
  ];
  // summary.js indents a failed check's detail line by indentLevel(level + 1) of the checks'
  // context, i.e. (2 * (level + 1) + 1) * 2 spaces: 6 at the top, 10 in a nested group.
  const detailIndent = ' '.repeat((2 * (level + 1) + 1) * 2);
  const lines = checks.ordered.map((c) => {
    if (c.fails === 0) return `${indent}${p.ok(`✓ ${c.name}`)}`;
    const share = Math.floor((100 * c.passes) / (c.passes + c.fails));
    return `${indent}${p.bad(`✗ ${c.name}`)}\n${detailIndent}${p.bad(`↳  ${share}% — ✓ ${c.passes} / ✗ ${c.fails}`)}`;
  });
  return [...renderBlock(rows, p), '\n', ...lines, '\n'];
}

/** Checks with the same name merged, in first-seen order (k6 keys a summary's checks by name). */
export function mergeChecksByName(checks: readonly CheckCount[]): CheckCount[] {
  const byName = new Map<string, CheckCount>();
  for (const c of checks) {
    const known = byName.get(c.name);
    if (known) {
      known.passes += c.passes;
      known.fails += c.fails;
    } else byName.set(c.name, { name: c.name, passes: c.passes, fails: c.fails });
  }
  return [...byName.values()];
}
