// k6 v1's end-of-test text (summary.js): THRESHOLDS with observed values, TOTAL RESULTS with checks
// and metrics grouped by category, and in `full` mode one section per group and per scenario;
// `legacy` is v0.x's layout (text-summary-legacy.ts).
import { humanizeValue } from './humanize.js';
import type { CheckCount, SummarySections } from '../metrics/sections.js';
import type { SummaryData, SummaryMetric } from '@loadlab/k6-format/summary';
import { renderLegacySummary } from './text-summary-legacy.js';
import {
  checkPieces,
  COLORED,
  joinPieces,
  mergeChecksByName,
  metricPieces,
  PLAIN,
  sortKeys,
  visibleKeys,
  type Palette,
} from './text-summary-format.js';
import { groupAndScenarioSections, sectionMetricKeys, type Section } from './text-summary-sections.js';
import { parseMetricKey } from '@loadlab/k6-format/thresholds';

export interface TextSummaryOptions {
  mode: 'compact' | 'full' | 'legacy';
  color: boolean;
  /** Observed threshold values by metric key and aggregation (p(N) outside summaryTrendStats). */
  observations?: Record<string, Record<string, number>>;
  /** Checks in first-seen order across groups (k6 lists them so); defaults to a walk of the tree. */
  orderedChecks?: CheckCount[];
  /** Per-group and per-scenario aggregates (MetricsEngine.summarySections); `full` mode shows them. */
  sections?: SummarySections;
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

function totalChecks(data: SummaryData, ordered?: CheckCount[]) {
  const checks = data.metrics.checks;
  const passes = checks?.values.passes ?? 0;
  const fails = checks?.values.fails ?? 0;
  if (!checks) return undefined;
  const all: CheckCount[] = ordered ? [...ordered] : [];
  const walk = (group: SummaryData['root_group']): void => {
    all.push(...group.checks);
    group.groups.forEach(walk);
  };
  if (!ordered) walk(data.root_group);
  return { passes, fails, ordered: mergeChecksByName(all) };
}

/**
 * The text k6 prints between a leading '\n' and a trailing '\n\n' (for compact and full, without
 * the '\n' summary.js itself starts with: the runner's banner ends with that blank line).
 */
export function renderTextSummary(data: SummaryData, opts: TextSummaryOptions): string {
  if (opts.mode === 'legacy') return renderLegacySummary(data, opts.color);
  const p = opts.color ? COLORED : PLAIN;
  const seconds = data.state.testRunDurationMs / 1000;
  const sections = opts.mode === 'full' ? opts.sections : undefined;
  const totalKeys = visibleKeys(Object.keys(data.metrics), opts.mode);
  // summary.js computes a report-wide name width with a reduce that has no initial value: NaN for
  // two metrics or more (each block then aligns itself), the name itself for one (no dots at all).
  const metricCount = new Set([...totalKeys, ...(sections ? sectionMetricKeys(sections) : [])]).size;
  const format = {
    trendStats: data.options.summaryTrendStats,
    timeUnit: data.options.summaryTimeUnit,
    dots: metricCount !== 1,
  };
  const list: Section[] = [];
  const thresholds = thresholdLines(data, p, opts);
  if (thresholds.length > 0) list.push({ title: 'THRESHOLDS', content: thresholds });
  const checks = totalChecks(data, opts.orderedChecks);
  list.push({
    title: 'TOTAL RESULTS',
    content: [
      ...(checks ? checkPieces(checks, seconds, 0, p) : []),
      ...metricPieces(data.metrics, totalKeys, 0, p, format),
    ],
  });
  if (sections) list.push(...groupAndScenarioSections(sections, { p, format, seconds }));
  const pieces = list.flatMap((s) => [`  █ ${p.bold(s.title)} \n`, ...s.content, '\n']);
  // Starts with a newline, as k6's does: with -q (no banner) two blank lines precede the first title.
  return joinPieces(pieces);
}
