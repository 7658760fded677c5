// Percentiles the way k6 computes them (TrendSink.P), so every engine, report and dashboard agrees.

/**
 * k6's TrendSink.P: linear interpolation between the two nearest ranks of ascending `sorted`; 0 when
 * empty. `fraction` is 0..1 (p(95) is 0.95, as k6 divides by 100 once); `count` lets a sink pass its
 * whole buffer and say how much of it is filled.
 */
export function percentileOfSorted(
  sorted: ArrayLike<number>,
  fraction: number,
  count = sorted.length,
): number {
  if (count === 0) return 0;
  if (count === 1) return sorted[0] as number;
  const i = fraction * (count - 1);
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
