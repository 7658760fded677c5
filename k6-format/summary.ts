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
