// The runner's metrics: sinks, thresholds, the engine, summaries. See README.md.
export { BUILTIN_METRICS } from './builtin.js';
export { parseDuration, formatDuration, DurationError } from '@loadlab/k6-format/duration';
export { MetricsEngine, DEFAULT_TREND_STATS, type Evaluation } from './engine.js';
export { summaryExportText, toSummaryExport } from './export.js';
export { humanizeValue, humanizeDuration, humanizeBytes } from '../summary/humanize.js';
export type { SummaryData, SummaryMetric } from '@loadlab/k6-format/summary';
export { renderTextSummary, type TextSummaryOptions } from '../summary/text-summary.js';
export type { SummarySection, SummarySections, CheckCount } from './sections.js';
export {
  parseThresholds,
  parseMetricKey,
  ThresholdSyntaxError,
  type ThresholdDef,
} from '@loadlab/k6-format/thresholds';
