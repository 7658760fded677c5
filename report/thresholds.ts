// Threshold expressions and metric keys in k6's syntax, and a tracker that can compute any threshold's
// observed value from raw samples (needed when the summary lacks the statistic, e.g. p(99), and live)
// with k6's sinks (k6-format/sinks.ts), the same the runner counts with.
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';
import {
  parseExpression as parseK6Expression,
  parseMetricKey as parseK6MetricKey,
  ThresholdSyntaxError,
} from '@loadlab/k6-format/thresholds';
import { createSink, RateSink, statistic, type AnySink } from '@loadlab/k6-format/sinks';

export interface ParsedExpression {
  stat: string; // avg | min | max | med | count | rate | value | p(N)
  op: string;
  limit: number;
}

/** `p(95)<1500` by k6's grammar; undefined for what k6 would refuse, so the report shows the source as is. */
export function parseExpression(source: string): ParsedExpression | undefined {
  try {
    const e = parseK6Expression(source);
    return { stat: e.aggregation, op: e.operator, limit: e.value };
  } catch (error) {
    if (error instanceof ThresholdSyntaxError) return undefined;
    throw error;
  }
}

export interface MetricKey {
  name: string;
  tags: Record<string, string>;
}

/** `http_req_duration{endpoint:health,method:GET}` -> name + tag filter, by k6's rules; a key k6 would refuse is a plain name. */
export function parseMetricKey(key: string): MetricKey {
  try {
    const { name, tags } = parseK6MetricKey(key);
    return { name, tags: Object.fromEntries(tags) };
  } catch (error) {
    if (error instanceof ThresholdSyntaxError) return { name: key.trim(), tags: {} };
    throw error;
  }
}

export function tagsMatch(filter: Record<string, string>, tags: Record<string, string>): boolean {
  for (const k in filter) if (tags[k] !== filter[k]) return false;
  return true;
}

interface Tracked {
  key: string;
  filter: Record<string, string>;
  type?: MetricType;
  contains?: ValueType;
  /** k6's sink for the key, made once the metric's type is known. */
  sink?: AnySink;
  /** Values that came before the type (an NDJSON Point ahead of its Metric line). */
  early: number[];
}

/** Collects samples for chosen metric keys in k6's sinks, so any statistic of them is k6's own. */
export class ThresholdTracker {
  private readonly byName = new Map<string, Tracked[]>();

  constructor(keys: Iterable<string>) {
    for (const key of new Set(keys)) {
      const { name, tags } = parseMetricKey(key);
      const list = this.byName.get(name) ?? [];
      list.push({ key, filter: tags, early: [] });
      this.byName.set(name, list);
    }
  }

  wants(metric: string): boolean {
    return this.byName.has(metric);
  }

  add(
    metric: string,
    type: MetricType | undefined,
    value: number,
    tags: Record<string, string>,
    contains?: ValueType,
  ): void {
    const list = this.byName.get(metric);
    if (!list) return;
    for (const t of list) {
      // Any sample of the metric tells a sub-metric its type: an empty sub-metric still shows k6's zeros.
      if (type) this.learnType(t, type);
      if (contains) t.contains ??= contains;
      if (!tagsMatch(t.filter, tags)) continue;
      if (t.sink) t.sink.add(value);
      else t.early.push(value);
    }
  }

  /** The type of `key`'s metric from elsewhere (the summary): an empty metric then shows k6's zeros. */
  declare(key: string, type: MetricType): void {
    const t = this.find(key);
    if (t) this.learnType(t, type);
  }

  private learnType(t: Tracked, type: MetricType): void {
    if (t.sink) return;
    t.type = type;
    t.sink = createSink(type);
    for (const value of t.early) t.sink.add(value);
    t.early = [];
  }

  private find(key: string): Tracked | undefined {
    return this.byName.get(parseMetricKey(key).name)?.find((x) => x.key === key);
  }

  contains(key: string): ValueType | undefined {
    return this.find(key)?.contains;
  }

  /** Sample counts of a tracked key (undefined when untracked); `type` is known once a sample arrived. */
  counts(key: string): { type?: MetricType; count: number; nonZero: number } | undefined {
    const t = this.find(key);
    if (!t) return undefined;
    const sink = t.sink;
    const nonZero = sink instanceof RateSink ? sink.passes : t.early.filter((v) => v !== 0).length;
    return { type: t.type, count: sink?.count ?? t.early.length, nonZero };
  }

  /**
   * The value of `stat` for `key` as k6's summary shows it (0 for a rate with no samples), or undefined
   * when the key was not tracked, has no type yet, or its type has no such statistic.
   */
  observed(key: string, stat: string, durationMs: number): number | undefined {
    const sink = this.find(key)?.sink;
    return sink ? statistic(sink, stat, durationMs / 1000) : undefined;
  }
}
