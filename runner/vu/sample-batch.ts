// Samples cross from a VU worker to the main thread in columns rather than as one object per sample.
// Structured clone writes every property name of every object and the receiver internalises each
// one again; an `http.get` emits 10+ samples, so per-sample objects were most of what the bridge
// copied. Columns carry each metric name once per batch and the per-sample fields as plain arrays;
// a tag set shared by a request's samples still crosses once (structured clone keeps shared refs).
import type { MetricType, Sample, ValueType } from '../types.js';

/**
 * A row whose metric index is one of these stands for several samples that share their tags and
 * time, expanded on the main thread: every `http.get` emits 9 samples and every iteration 4, and
 * building them there (one hot isolate) instead of in each VU's isolate (50 cold ones, each
 * compiling the same code) is what keeps a request's VU-thread cost low.
 */
const HTTP_ROW = -1; // value: 1 expected, 0 not, -1 no response callback; payload: the hop's timings
const ITERATION_ROW = -2; // value: iteration_duration, -1 when not counted; payload: [sent, received]

export interface SampleBatch {
  /** The batch's distinct metrics; `metric[i]` indexes these three (or is HTTP_ROW / ITERATION_ROW). */
  names: string[];
  types: MetricType[];
  contains: ValueType[];
  metric: number[];
  value: number[];
  time: number[];
  tags: Record<string, string>[];
  /** The numbers of each compound row, in row order. */
  payloads: number[][];
}

function emptyBatch(): SampleBatch {
  return { names: [], types: [], contains: [], metric: [], value: [], time: [], tags: [], payloads: [] };
}

/** Worker side: collects samples until take(). */
export class SampleBatcher {
  #batch = emptyBatch();
  #index = new Map<string, number>();

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
   * An HTTP hop's samples: http_reqs, the seven http_req_* timings (values in HOP_TIMING_KEYS
   * order) and, when a response callback judged it, http_req_failed.
   */
  addHttp(
    timings: number[],
    expected: boolean | undefined,
    tags: Record<string, string>,
    time: number,
  ): void {
    this.#row(HTTP_ROW, expected === undefined ? -1 : expected ? 1 : 0, tags, time);
    this.#batch.payloads.push(timings);
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
    this.#batch.payloads.push([sent, received]);
  }

  #row(metric: number, value: number, tags: Record<string, string>, time: number): void {
    const b = this.#batch;
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
export function decodeSamples(b: SampleBatch): Sample[] {
  const out: Sample[] = [];
  let payload = 0;
  for (let i = 0; i < b.metric.length; i++) {
    const m = b.metric[i]!;
    const value = b.value[i]!;
    const tags = b.tags[i]!;
    const time = b.time[i]!;
    if (m === HTTP_ROW) expandHttp(out, b.payloads[payload++]!, value, tags, time);
    else if (m === ITERATION_ROW) expandIteration(out, b.payloads[payload++]!, value, tags, time);
    else out.push({ metric: b.names[m]!, type: b.types[m]!, contains: b.contains[m]!, value, tags, time });
  }
  return out;
}

function expandHttp(out: Sample[], t: number[], expected: number, tags: Sample['tags'], time: number): void {
  out.push({ metric: 'http_reqs', type: 'counter', contains: 'default', value: 1, tags, time });
  out.push({ metric: 'http_req_duration', type: 'trend', contains: 'time', value: t[0]!, tags, time });
  out.push({ metric: 'http_req_blocked', type: 'trend', contains: 'time', value: t[1]!, tags, time });
  out.push({ metric: 'http_req_connecting', type: 'trend', contains: 'time', value: t[3]!, tags, time });
  out.push({ metric: 'http_req_tls_handshaking', type: 'trend', contains: 'time', value: t[4]!, tags, time });
  out.push({ metric: 'http_req_sending', type: 'trend', contains: 'time', value: t[5]!, tags, time });
  out.push({ metric: 'http_req_waiting', type: 'trend', contains: 'time', value: t[6]!, tags, time });
  out.push({ metric: 'http_req_receiving', type: 'trend', contains: 'time', value: t[7]!, tags, time });
  if (expected >= 0) {
    out.push({
      metric: 'http_req_failed',
      type: 'rate',
      contains: 'default',
      value: expected ? 0 : 1,
      tags,
      time,
    });
  }
}

function expandIteration(
  out: Sample[],
  p: number[],
  duration: number,
  tags: Sample['tags'],
  time: number,
): void {
  out.push({ metric: 'data_sent', type: 'counter', contains: 'data', value: p[0]!, tags, time });
  out.push({ metric: 'data_received', type: 'counter', contains: 'data', value: p[1]!, tags, time });
  if (duration >= 0) {
    out.push({ metric: 'iteration_duration', type: 'trend', contains: 'time', value: duration, tags, time });
    out.push({ metric: 'iterations', type: 'counter', contains: 'default', value: 1, tags, time });
  }
}
