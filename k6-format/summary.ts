// The handleSummary `data` object (k6's legacy summary shape, the default in v1 and v2): what the
// runner writes, the suite's handleSummary reads and the report renders. The one declaration of it.
import type { MetricType, ValueType } from './samples.js';

export interface SummaryMetric {
  type: MetricType;
  contains: ValueType;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryCheck {
  name: string;
  path: string;
  /** Hex md5 of the path. */
  id: string;
  passes: number;
  fails: number;
}

export interface SummaryGroup {
  name: string;
  path: string;
  id: string;
  groups: SummaryGroup[];
  checks: SummaryCheck[];
}

export interface SummaryData {
  root_group: SummaryGroup;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}

const finite = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * How many samples stand behind a handleSummary metric, where its values say so: a rate's passes and
 * fails (`hits` the passes); a trend's count when summaryTrendStats asked for it, else 0 for a time
 * trend whose avg, min and max are all exactly 0 (k6 shows an empty trend as zeros, and no request
 * takes 0 ms). A counter's or gauge's values do not say.
 */
export function summarySamples(metric: SummaryMetric): { samples?: number; hits?: number } {
  const v = metric.values;
  if (metric.type === 'rate') {
    const passes = finite(v.passes);
    const fails = finite(v.fails);
    return passes !== undefined && fails !== undefined ? { samples: passes + fails, hits: passes } : {};
  }
  if (metric.type === 'trend') {
    const count = finite(v.count);
    if (count !== undefined) return { samples: count };
    const allZero = v.avg === 0 && v.min === 0 && v.max === 0;
    return metric.contains === 'time' && allZero ? { samples: 0 } : {};
  }
  return {};
}
