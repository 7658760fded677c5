// Statistics the way k6 computes them, so a report's numbers match k6's own summary.

/** k6's TrendSink.P: sort, then interpolate linearly between the two nearest ranks. `sorted` must be ascending. */
export function percentileOfSorted(sorted: ArrayLike<number>, pct: number): number {
  const n = sorted.length;
  if (n === 0) return 0;
  if (n === 1) return sorted[0] as number;
  const i = (pct / 100) * (n - 1);
  const lo = Math.floor(i);
  const hi = Math.ceil(i);
  const a = sorted[lo] as number;
  const b = sorted[hi] as number;
  return a + (b - a) * (i - lo);
}

export function sortNumbers(values: readonly number[]): Float64Array {
  // A typed array sorts numerically by default and is several times faster than Array#sort with a comparator.
  return Float64Array.from(values).sort();
}

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
    med: percentileOfSorted(s, 50),
    p90: percentileOfSorted(s, 90),
    p95: percentileOfSorted(s, 95),
    p99: percentileOfSorted(s, 99),
  };
}
