// Samples cross from a VU worker to the main thread in columns rather than as one object per sample.
// Structured clone writes every property name of every object and the receiver internalises each
// one again; an `http.get` emits 10+ samples, so per-sample objects were most of what the bridge
// copied. Columns carry each metric name once per batch and the per-sample fields as plain arrays;
// a tag set shared by a request's samples still crosses once (structured clone keeps shared refs).
import type { MetricType, Sample, ValueType } from '../types.js';

export interface SampleBatch {
  /** The batch's distinct metrics; `metric[i]` indexes these three. */
  names: string[];
  types: MetricType[];
  contains: ValueType[];
  metric: number[];
  value: number[];
  time: number[];
  tags: Record<string, string>[];
}

function emptyBatch(): SampleBatch {
  return { names: [], types: [], contains: [], metric: [], value: [], time: [], tags: [] };
}

/** Worker side: collects samples until take(). */
export class SampleBatcher {
  #batch = emptyBatch();
  #index = new Map<string, number>();

  get length(): number {
    return this.#batch.metric.length;
  }

  add(
    metric: string,
    type: MetricType,
    contains: ValueType,
    value: number,
    tags: Record<string, string>,
    time: number,
  ): void {
    const b = this.#batch;
    let i = this.#index.get(metric);
    if (i === undefined) {
      i = b.names.length;
      b.names.push(metric);
      b.types.push(type);
      b.contains.push(contains);
      this.#index.set(metric, i);
    }
    b.metric.push(i);
    b.value.push(value);
    b.time.push(time);
    b.tags.push(tags);
  }

  /** The batch so far (to post), and a fresh one for what follows. */
  take(): SampleBatch {
    const b = this.#batch;
    this.#batch = emptyBatch();
    this.#index = new Map();
    return b;
  }
}

/** Main-thread side: the batch as k6 samples, in emission order. */
export function decodeSamples(b: SampleBatch): Sample[] {
  const out: Sample[] = new Array<Sample>(b.metric.length);
  for (let i = 0; i < b.metric.length; i++) {
    const m = b.metric[i]!;
    out[i] = {
      metric: b.names[m]!,
      type: b.types[m]!,
      contains: b.contains[m]!,
      value: b.value[i]!,
      tags: b.tags[i]!,
      time: b.time[i]!,
    };
  }
  return out;
}
