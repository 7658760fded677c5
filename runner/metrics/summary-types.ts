// The handleSummary `data` object (k6's legacy summary shape, the default in v1 and v2).
import type { MetricType, ValueType } from '../types.js';
import type { GroupNode } from './group-tree.js';

export interface SummaryMetric {
  type: MetricType;
  contains: ValueType;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryData {
  root_group: GroupNode;
  options: { summaryTrendStats: string[]; summaryTimeUnit: string; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, SummaryMetric>;
  setup_data?: unknown;
}
