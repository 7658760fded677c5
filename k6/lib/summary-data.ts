// The subset of k6's handleSummary `data` the suite reads. Declared here (not from @types/k6)
// so the pure summary code is testable under Node with real k6 output files.

export interface SummaryMetric {
  type: 'counter' | 'gauge' | 'rate' | 'trend';
  contains: 'default' | 'time' | 'data';
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

export interface SummaryCheck {
  name: string;
  path: string;
  passes: number;
  fails: number;
}

export interface SummaryGroup {
  name: string;
  path: string;
  groups: SummaryGroup[];
  checks: SummaryCheck[];
}

export interface SummaryData {
  metrics: Record<string, SummaryMetric>;
  root_group: SummaryGroup;
  state: { testRunDurationMs: number };
  options?: Record<string, unknown>;
}
