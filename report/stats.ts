// Statistics the way k6 computes them, so a report's numbers match k6's own summary.
import { percentileOfSorted, sortNumbers } from '@loadlab/k6-format/percentile';

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
  const s = sortNumbers(values);
  let sum = 0;
  for (const v of s) sum += v;
  const n = s.length;
  return {
    count: n,
    avg: n ? sum / n : 0,
    min: n ? (s[0] as number) : 0,
    max: n ? (s[n - 1] as number) : 0,
    med: percentileOfSorted(s, 0.5),
    p90: percentileOfSorted(s, 0.9),
    p95: percentileOfSorted(s, 0.95),
    p99: percentileOfSorted(s, 0.99),
  };
}
