// A trend's statistics for the report's tables and charts (per endpoint, per second), counted by
// k6's own TrendSink and read by its statistic() (k6-format/sinks.ts), the same the runner's summary
// and the threshold tracker use, so a report's numbers match k6's own summary.
import { statistic, TrendSink } from '@loadlab/k6-format/sinks';

export interface TrendStats {
  count: number;
  avg: number;
  min: number;
  max: number;
  med: number;
  p90: number;
  p95: number;
  p99: number;
}

export function trendStats(values: readonly number[]): TrendStats {
  const sink = new TrendSink();
  for (const value of values) sink.add(value);
  // A trend has every one of these statistics; the elapsed time matters only for counters' rates.
  const stat = (name: string) => statistic(sink, name, 0)!;
  return {
    count: sink.count,
    avg: stat('avg'),
    min: stat('min'),
    max: stat('max'),
    med: stat('med'),
    p90: stat('p(90)'),
    p95: stat('p(95)'),
    p99: stat('p(99)'),
  };
}
