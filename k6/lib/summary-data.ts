// k6's handleSummary `data`, from the one declaration every part of the project shares (k6-format),
// so the pure summary code is testable under Node with real k6 output files. Types only: nothing of
// it reaches the bundles.
export type { SummaryCheck, SummaryData, SummaryGroup, SummaryMetric } from '@loadlab/k6-format/summary';
