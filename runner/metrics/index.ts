// The runner's metrics: sinks, thresholds, the engine, summary data. The end-of-test text is runner/summary/. See README.md.
export { BUILTIN_METRICS } from './builtin.js';
export { parseDuration, formatDuration, goDurationError, DurationError } from '@loadlab/k6-format/duration';
export { MetricsEngine, DEFAULT_TREND_STATS, type Evaluation } from './engine.js';
export { summaryExportText, toSummaryExport } from './export.js';
export type { SummaryData, SummaryMetric } from '@loadlab/k6-format/summary';
export type { SummarySection, SummarySections, CheckCount } from './sections.js';
export {
  parseThresholds,
  parseMetricKey,
  ThresholdSyntaxError,
  type ThresholdDef,
} from '@loadlab/k6-format/thresholds';
