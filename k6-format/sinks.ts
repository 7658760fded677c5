// k6's statistics, the one home for every engine and reader (the runner's summary and thresholds, the
// report, the live dashboard): sinks per metric type with k6's definitions (metrics/sink.go): counters
// sum, gauges keep the last value and extremes, rates count non-zero samples, trends keep every value so
// percentiles are exact (k6 does the same; memory is 8 bytes per sample).
import { percentileOfSorted } from './percentile.js';
import type { MetricType } from './samples.js';

export interface Sink {
  readonly count: number;
  add(value: number): void;
}

export class CounterSink implements Sink {
  count = 0;
  sum = 0;
  add(value: number): void {
    this.count += 1;
    this.sum += value;
  }
}

export class GaugeSink implements Sink {
  count = 0;
  value = 0;
  min = 0;
  // k6 v1.x starts max at 0 (an all-negative gauge reports max 0); kept for identical output.
  max = 0;
  add(value: number): void {
    if (this.count === 0 || value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    this.value = value;
    this.count += 1;
  }
}

export class RateSink implements Sink {
  count = 0;
  passes = 0;
  add(value: number): void {
    this.count += 1;
    if (value !== 0) this.passes += 1;
  }
  get rate(): number {
    return this.count === 0 ? 0 : this.passes / this.count;
  }
}

export class TrendSink implements Sink {
  private values = new Float64Array(1024);
  private sorted = true;
  count = 0;
  sum = 0;
  min = 0;
  max = 0;

  add(value: number): void {
    if (this.count === this.values.length) {
      const grown = new Float64Array(this.values.length * 2);
      grown.set(this.values);
      this.values = grown;
    }
    if (this.count === 0 || value < this.min) this.min = value;
    if (this.count === 0 || value > this.max) this.max = value;
    if (this.count > 0 && value < this.values[this.count - 1]!) this.sorted = false;
    this.values[this.count] = value;
    this.count += 1;
    this.sum += value;
  }

  get avg(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /** k6's TrendSink.P: linear interpolation between the closest ranks; 0 when empty. */
  percentile(fraction: number): number {
    if (this.count === 0) return 0;
    if (!this.sorted) {
      this.values.subarray(0, this.count).sort();
      this.sorted = true;
    }
    return percentileOfSorted(this.values, fraction, this.count);
  }
}

export function createSink(type: MetricType): CounterSink | GaugeSink | RateSink | TrendSink {
  switch (type) {
    case 'counter':
      return new CounterSink();
    case 'gauge':
      return new GaugeSink();
    case 'rate':
      return new RateSink();
    case 'trend':
      return new TrendSink();
  }
}

export type AnySink = ReturnType<typeof createSink>;

/**
 * One statistic of a sink as k6 shows it (summary data, --summary-export, the end-of-test text): count,
 * rate, value, min, max, avg, med, p(N), passes, fails; a rate with no samples shows rate 0.
 * `undefined` when the metric type has no such statistic.
 */
export function statistic(sink: AnySink, name: string, elapsedSeconds: number): number | undefined {
  if (sink instanceof CounterSink) {
    if (name === 'count') return sink.sum;
    if (name === 'rate') return elapsedSeconds > 0 ? sink.sum / elapsedSeconds : 0;
    return undefined;
  }
  if (sink instanceof GaugeSink) {
    if (name === 'value') return sink.value;
    if (name === 'min') return sink.min;
    if (name === 'max') return sink.max;
    return undefined;
  }
  if (sink instanceof RateSink) {
    if (name === 'rate') return sink.rate;
    if (name === 'passes') return sink.passes;
    if (name === 'fails') return sink.count - sink.passes;
    return undefined;
  }
  switch (name) {
    case 'avg':
      return sink.avg;
    case 'min':
      return sink.min;
    case 'max':
      return sink.max;
    case 'med':
      return sink.percentile(0.5);
    case 'count':
      return sink.count;
  }
  const p = /^p\(([\d.]+)\)$/.exec(name);
  return p ? sink.percentile(Number(p[1]) / 100) : undefined;
}

/**
 * What a threshold compares, as k6's Thresholds.Run fills it: the shown statistic, except that a rate
 * with no samples has no `rate` at all (k6 avoids dividing by zero), so its thresholds are not judged
 * and stay passed, while its summary shows rate 0. `undefined`: nothing to judge.
 */
export function thresholdInput(sink: AnySink, name: string, elapsedSeconds: number): number | undefined {
  if (sink instanceof RateSink && sink.count === 0) return undefined;
  return statistic(sink, name, elapsedSeconds);
}

/** The `values` of a metric in summary data: k6's per-type statistics, trends per summaryTrendStats. */
export function summaryValues(
  type: MetricType,
  sink: AnySink,
  elapsedSeconds: number,
  trendStats: readonly string[],
): Record<string, number> {
  const names =
    type === 'counter'
      ? ['count', 'rate']
      : type === 'gauge'
        ? ['value', 'min', 'max']
        : type === 'rate'
          ? ['rate', 'passes', 'fails']
          : trendStats;
  const values: Record<string, number> = {};
  for (const name of names) values[name] = statistic(sink, name, elapsedSeconds) ?? 0;
  return values;
}
