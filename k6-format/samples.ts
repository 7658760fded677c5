// k6's sample vocabulary: what every engine emits and every output, report and dashboard reads.

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type ValueType = 'default' | 'time' | 'data';

/** One measurement, as k6 emits it (`--out json` Point lines carry the same fields). */
export interface Sample {
  metric: string;
  type: MetricType;
  contains: ValueType;
  value: number;
  /** k6 tags: system tags (method, name, url, status, group, scenario, check, ...) plus user tags. */
  tags: Record<string, string>;
  /** Wall-clock time of the sample, milliseconds since the epoch (fractions allowed). */
  time: number;
  /**
   * k6's metadata: the `vu` and `iter` system tags when enabled, and exec.vu.metrics.metadata. Not
   * tags: nothing aggregates by them; `--out json` writes them.
   */
  metadata?: Readonly<Record<string, string>>;
}

/** What an output learns about a metric the first time it sees it (NDJSON `Metric` lines). */
export interface MetricInfo {
  name: string;
  type: MetricType;
  contains: ValueType;
  /** Threshold source strings defined on this metric or its sub-metrics. */
  thresholds: string[];
}

/** Threshold state after an evaluation, keyed `metric` or `metric{tag:value}` then by source string. */
export type ThresholdStates = Record<string, Record<string, { ok: boolean }>>;
