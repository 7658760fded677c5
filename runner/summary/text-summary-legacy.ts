// k6's `legacy` end-of-test text (v0.x's layout, `--summary-mode=legacy` in v1; summary-legacy.js):
// the check tree first, then every metric of the handleSummary data, sorted, one aligned block, with
// a threshold mark in front of the metrics that have thresholds.
import type { GroupNode } from '../metrics/group-tree.js';
import { humanizeValue } from './humanize.js';
import type { SummaryData, SummaryMetric } from '@loadlab/k6-format/summary';
import { sortKeys, width } from './text-summary-format.js';

/** summary-legacy.js decorate(): one escape sequence with every code given, then a reset. */
type Decorate = (text: string, ...codes: number[]) => string;
const GREEN = 32;
const RED = 31;
const CYAN = 36;
const FAINT = 2;

const INDENT = ' '; // the `indent` option k6 passes

function groupLines(indent: string, group: GroupNode, decorate: Decorate): string[] {
  const lines: string[] = [];
  if (group.name !== '') {
    lines.push(`${indent}█ ${group.name}\n`);
    indent += '  ';
  }
  for (const c of group.checks) {
    if (c.fails === 0) {
      lines.push(decorate(`${indent}✓ ${c.name}`, GREEN));
      continue;
    }
    const share = Math.floor((100 * c.passes) / (c.passes + c.fails));
    lines.push(decorate(`${indent}✗ ${c.name}\n${indent} ↳  ${share}% — ✓ ${c.passes} / ✗ ${c.fails}`, RED));
  }
  if (group.checks.length > 0) lines.push('');
  for (const child of group.groups) lines.push(...groupLines(indent, child, decorate));
  return lines;
}

function cells(metric: SummaryMetric, data: SummaryData): { trend?: string[]; values?: string[] } {
  const timeUnit = data.options.summaryTimeUnit;
  const fmt = (v: number) => humanizeValue(v, metric, timeUnit);
  const v = metric.values;
  switch (metric.type) {
    case 'trend':
      return {
        trend: data.options.summaryTrendStats.map((stat) =>
          stat === 'count' ? String(v[stat] ?? 0) : fmt(v[stat] ?? 0),
        ),
      };
    case 'counter':
      return { values: [fmt(v.count ?? 0), `${fmt(v.rate ?? 0)}/s`] };
    case 'gauge':
      return { values: [fmt(v.value ?? 0), `min=${fmt(v.min ?? 0)}`, `max=${fmt(v.max ?? 0)}`] };
    case 'rate':
      return { values: [fmt(v.rate ?? 0), `${v.passes ?? 0} out of ${(v.passes ?? 0) + (v.fails ?? 0)}`] };
  }
}

function metricLines(data: SummaryData, decorate: Decorate): string[] {
  const names = sortKeys(Object.keys(data.metrics));
  const subIndent = (name: string) => (name.includes('{') ? '  ' : '');
  const display = (name: string) =>
    name.includes('{') ? `{ ${name.slice(name.indexOf('{') + 1, -1)} }` : name;
  const all = new Map(names.map((name) => [name, cells(data.metrics[name]!, data)]));
  const nameWidth = Math.max(0, ...names.map((n) => width(subIndent(n) + display(n))));
  const trendWidths: number[] = [];
  let valueWidth = 0;
  const extraWidths = [0, 0];
  for (const c of all.values()) {
    c.trend?.forEach((t, i) => (trendWidths[i] = Math.max(trendWidths[i] ?? 0, width(t))));
    if (!c.values) continue;
    valueWidth = Math.max(valueWidth, width(c.values[0]!));
    c.values.slice(1).forEach((e, i) => (extraWidths[i] = Math.max(extraWidths[i] ?? 0, width(e))));
  }
  const padAfter = (colored: string, plain: string, w: number) => colored + ' '.repeat(w - width(plain));
  return names.map((name) => {
    const metric = data.metrics[name]!;
    const c = all.get(name)!;
    let body: string;
    if (c.trend) {
      body = c.trend
        .map(
          (t, i) => `${data.options.summaryTrendStats[i]}=${padAfter(decorate(t, CYAN), t, trendWidths[i]!)}`,
        )
        .join(' ');
    } else {
      const [value, ...extras] = c.values!;
      body = padAfter(decorate(value!, CYAN), value!, valueWidth);
      if (extras.length === 1) body += ` ${decorate(extras[0]!, CYAN, FAINT)}`;
      else if (extras.length > 1)
        body += ` ${extras.map((e, i) => padAfter(decorate(e, CYAN, FAINT), e, extraWidths[i]!)).join(' ')}`;
    }
    let mark = ' ';
    if (metric.thresholds) {
      const failed = Object.values(metric.thresholds).some((t) => !t.ok);
      mark = failed ? decorate('✗', RED) : decorate('✓', GREEN);
    }
    const shown = display(name);
    const dots = '.'.repeat(nameWidth - width(shown) - width(subIndent(name)) + 3);
    return `${INDENT}  ${subIndent(name)}${mark} ${shown}${decorate(`${dots}:`, FAINT)} ${body}`;
  });
}

/** The text k6 prints between a leading '\n' and a trailing '\n\n'. */
export function renderLegacySummary(data: SummaryData, color: boolean): string {
  const decorate: Decorate = color
    ? (text, ...codes) => `\x1b[${codes.join(';')}m${text}\x1b[0m`
    : (text) => text;
  return [...groupLines(`${INDENT}    `, data.root_group, decorate), ...metricLines(data, decorate)].join(
    '\n',
  );
}
