// A readable end-of-test text: verdict, every threshold with the value it was judged on, checks
// by group, and the handful of metrics people look at first. Written here because remote jslib
// imports are unreachable offline. Pure: tested under Node with real k6 summaries.
import { parseExpression, ThresholdSyntaxError } from '@loadlab/k6-format/thresholds';
import { summarySamples } from '@loadlab/k6-format/summary';
import type { SummaryCheck, SummaryData, SummaryGroup, SummaryMetric } from './summary-data.js';

export interface SummaryLabels {
  scenario: string;
  profile: string;
}

/** `p(95)<1500` -> the statistic it reads (`p(95)`), as k6 names it in `values`: k6-format's grammar. */
export function thresholdStatistic(expression: string): string {
  try {
    return parseExpression(expression).aggregation;
  } catch (error) {
    // k6 refused such a threshold before the run; show the expression rather than fail the summary.
    if (error instanceof ThresholdSyntaxError) return expression;
    throw error;
  }
}

export function formatValue(metric: SummaryMetric, statistic: string): string {
  const value = metric.values[statistic];
  if (value === undefined) return 'n/a';
  if (metric.type === 'rate') return `${(value * 100).toFixed(2)}%`;
  if (metric.contains === 'time' && statistic !== 'count') return formatDuration(value);
  if (metric.contains === 'data' && statistic === 'count') return formatBytes(value);
  return Number.isInteger(value) ? String(value) : value.toFixed(2);
}

export function formatDuration(ms: number): string {
  if (ms >= 60_000) return `${Math.floor(ms / 60_000)}m${((ms % 60_000) / 1000).toFixed(1)}s`;
  if (ms >= 1000) return `${(ms / 1000).toFixed(2)}s`;
  if (ms >= 1) return `${ms.toFixed(2)}ms`;
  return `${(ms * 1000).toFixed(0)}µs`;
}

function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${units[unit]}`;
}

/**
 * k6 reports a metric without samples as zeros (an empty trend has p(95)=0 and passes `p(95)<500`);
 * saying "no samples" keeps a reader from taking that for a measurement. No request takes 0 ms, so a
 * time trend whose avg, min and max are all 0 is empty; a rate is empty with no passes and no fails.
 */
export function hasNoSamples(metric: SummaryMetric): boolean {
  return summarySamples(metric).samples === 0;
}

/** Every threshold of the run, in metric order, with its verdict. */
export function thresholdRows(
  data: SummaryData,
): { metric: string; expression: string; observed: string; ok: boolean }[] {
  const rows = [];
  for (const name of Object.keys(data.metrics).sort()) {
    const metric = data.metrics[name]!;
    for (const [expression, state] of Object.entries(metric.thresholds ?? {})) {
      rows.push({
        metric: name,
        expression,
        observed: hasNoSamples(metric) ? 'no samples' : formatValue(metric, thresholdStatistic(expression)),
        ok: state.ok,
      });
    }
  }
  return rows;
}

export function passed(data: SummaryData): boolean {
  return thresholdRows(data).every((row) => row.ok);
}

function checkLines(group: SummaryGroup, depth: number): string[] {
  const indent = '  '.repeat(depth);
  const lines: string[] = [];
  if (group.name) lines.push(`${indent}█ ${group.name}`);
  const inner = group.name ? depth + 1 : depth;
  for (const check of group.checks) lines.push(checkLine(check, '  '.repeat(inner)));
  for (const child of group.groups) lines.push(...checkLines(child, inner));
  return lines;
}

function checkLine(check: SummaryCheck, indent: string): string {
  const total = check.passes + check.fails;
  const mark = check.fails === 0 ? '✓' : '✗';
  const share = total === 0 ? '' : ` ${((check.passes / total) * 100).toFixed(1)}%`;
  return `${indent}${mark} ${check.name}  (${check.passes} passed, ${check.fails} failed${share ? ',' + share : ''})`;
}

const KEY_METRICS: [string, string[]][] = [
  ['http_reqs', ['count', 'rate']],
  ['http_req_failed', ['rate']],
  ['http_req_duration', ['avg', 'med', 'p(95)', 'p(99)', 'max']],
  ['iterations', ['count', 'rate']],
  ['iteration_duration', ['avg', 'p(95)']],
  ['vus_max', ['value']],
  ['data_received', ['count']],
  ['data_sent', ['count']],
  // Browser runs: the page's own traffic and the Core Web Vitals (shown only when present).
  ['browser_http_req_duration', ['avg', 'p(95)']],
  ['browser_http_req_failed', ['rate']],
  ['browser_web_vital_fcp', ['avg', 'p(95)']],
  ['browser_web_vital_lcp', ['avg', 'p(95)']],
  ['browser_web_vital_ttfb', ['avg', 'p(95)']],
  ['browser_web_vital_inp', ['avg', 'p(95)']],
  ['browser_web_vital_cls', ['avg', 'max']],
];

export function renderSummaryText(data: SummaryData, labels: SummaryLabels): string {
  const ok = passed(data);
  const seconds = (data.state.testRunDurationMs / 1000).toFixed(1);
  const lines = [
    '',
    `loadlab ${labels.scenario} (profile ${labels.profile}) ran ${seconds}s: ${ok ? 'PASS' : 'FAIL'}`,
    '',
    'THRESHOLDS',
  ];
  const rows = thresholdRows(data);
  if (rows.length === 0) lines.push('  (none)');
  const width = Math.max(0, ...rows.map((r) => r.metric.length));
  for (const row of rows) {
    lines.push(
      `  ${row.ok ? '✓' : '✗'} ${row.metric.padEnd(width)}  ${row.expression.padEnd(12)} observed ${row.observed}`,
    );
  }
  lines.push('', 'CHECKS');
  const checks = checkLines(data.root_group, 1);
  lines.push(...(checks.length ? checks : ['  (none)']));
  lines.push('', 'KEY METRICS');
  const present = KEY_METRICS.filter(([name]) => data.metrics[name]);
  const nameWidth = Math.max(20, ...present.map(([name]) => name.length));
  for (const [name, stats] of present) {
    const metric = data.metrics[name];
    if (!metric) continue;
    const shown = stats
      .filter((s) => metric.values[s] !== undefined)
      .map(
        (s) =>
          `${s === 'count' || s === 'value' ? '' : `${s}=`}${s === 'rate' && metric.type === 'counter' ? `${metric.values[s]!.toFixed(2)}/s` : formatValue(metric, s)}`,
      );
    lines.push(`  ${name.padEnd(nameWidth)} ${shown.join('  ')}`);
  }
  lines.push('');
  return lines.join('\n');
}
