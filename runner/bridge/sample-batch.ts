// Samples cross from a VU worker to the main thread in columns rather than as one object per sample.
// Structured clone writes every property name of every object and the receiver internalises each
// one again; an `http.get` emits 10+ samples, so per-sample objects were most of what the bridge
// copied. Columns carry each metric name once per batch and the per-sample fields as plain arrays;
// a tag set shared by several rows (rt.baseTags(), a check's tags) crosses once per batch, as
// structured clone keeps shared references.
import type { MetricType, Sample, ValueType } from '../contracts.js';

/**
 * A row whose metric index is one of these stands for several samples, expanded on the main thread:
 * every `http.get` emits 9 samples and every iteration 4, and building them there (one hot
 * isolate) instead of in each VU's isolate (50 cold ones, each compiling the same code) is what
 * keeps a request's VU-thread cost low.
 */
const HTTP_ROW = -1; // value: the request's id; the main thread builds its hops' samples (http-samples.ts)
const ITERATION_ROW = -2; // value: iteration_duration, -1 when not counted; `nums`: sent, received

/** Main-thread side of HTTP rows: pushes the samples of request `id`'s hops with `base` tags. */
export type HttpRowExpander = (out: Sample[], id: number, base: Record<string, string>) => void;

export interface SampleBatch {
  /** The batch's distinct metrics; `metric[i]` indexes these three (or is HTTP_ROW / ITERATION_ROW). */
  names: string[];
  types: MetricType[];
  contains: ValueType[];
  metric: number[];
  value: number[];
  time: number[];
  tags: Record<string, string>[];
  /**
   * The extra numbers of compound rows, in row order, flat: a number array clones as one object,
   * where an array per row was one more object per row to write, allocate and collect.
   */
  nums: number[];
  /**
   * k6's sample metadata (the `vu` and `iter` system tags when enabled, exec.vu.metrics.metadata), for
   * the rows that have any: `metaRows[j]` is the row `metaSets[j]` belongs to. Absent, it costs a
   * batch nothing, which is every run that enables neither.
   */
  metaRows?: number[];
  metaSets?: Readonly<Record<string, string>>[];
}

function emptyBatch(): SampleBatch {
  return { names: [], types: [], contains: [], metric: [], value: [], time: [], tags: [], nums: [] };
}

/** Worker side: collects samples until take(). */
export class SampleBatcher {
  #batch = emptyBatch();
  #index = new Map<string, number>();
  /**
   * The metadata of the rows added from now on: a set is replaced, never changed, once rows share
   * it; undefined (or empty) for none.
   */
  metadata: Readonly<Record<string, string>> | undefined;

  /** Rows so far (a compound row counts once). */
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
    this.#row(i, value, tags, time);
  }

  /**
   * A request's samples (http_reqs, the seven http_req_* timings and, when a response callback
   * judged it, http_req_failed, for each of its hops): the main thread kept its answer and builds
   * them from it with these base tags (see http-samples.ts).
   */
  addHttp(requestId: number, base: Record<string, string>): void {
    // No time: the samples take their hops' end times, stamped on the main thread. NaN, not 0,
    // keeps the time column an array of doubles.
    this.#row(HTTP_ROW, requestId, base, NaN);
  }

  /** The end of an iteration (or setup/teardown): data_sent, data_received and, when `duration` is set, iteration_duration and iterations. */
  addIteration(
    sent: number,
    received: number,
    duration: number | undefined,
    tags: Record<string, string>,
    time: number,
  ): void {
    this.#row(ITERATION_ROW, duration ?? -1, tags, time);
    this.#batch.nums.push(sent, received);
  }

  #row(metric: number, value: number, tags: Record<string, string>, time: number): void {
    const b = this.#batch;
    if (this.metadata !== undefined) {
      (b.metaRows ??= []).push(b.metric.length);
      (b.metaSets ??= []).push(this.metadata);
    }
    b.metric.push(metric);
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
export function decodeSamples(b: SampleBatch, http?: HttpRowExpander): Sample[] {
  const out: Sample[] = [];
  let num = 0;
  let meta = 0;
  const metaRows = b.metaRows;
  for (let i = 0; i < b.metric.length; i++) {
    const m = b.metric[i]!;
    const value = b.value[i]!;
    const tags = b.tags[i]!;
    const time = b.time[i]!;
    const first = out.length;
    if (m === HTTP_ROW) {
      if (!http) throw new Error('an HTTP sample row needs the answers of its VU to be expanded');
      http(out, value, tags);
    } else if (m === ITERATION_ROW) {
      expandIteration(out, b.nums[num]!, b.nums[num + 1]!, value, tags, time);
      num += 2;
    } else out.push({ metric: b.names[m]!, type: b.types[m]!, contains: b.contains[m]!, value, tags, time });
    if (metaRows !== undefined && metaRows[meta] === i) {
      const metadata = b.metaSets![meta++]!;
      for (let s = first; s < out.length; s++) out[s]!.metadata = metadata;
    }
  }
  return out;
}

function expandIteration(
  out: Sample[],
  sent: number,
  received: number,
  duration: number,
  tags: Sample['tags'],
  time: number,
): void {
  out.push({ metric: 'data_sent', type: 'counter', contains: 'data', value: sent, tags, time });
  out.push({ metric: 'data_received', type: 'counter', contains: 'data', value: received, tags, time });
  if (duration >= 0) {
    out.push({ metric: 'iteration_duration', type: 'trend', contains: 'time', value: duration, tags, time });
    out.push({ metric: 'iterations', type: 'counter', contains: 'default', value: 1, tags, time });
  }
}
