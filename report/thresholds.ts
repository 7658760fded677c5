// Threshold expressions and metric keys in k6's syntax, and a tracker that can compute any threshold's
// observed value from raw samples (needed when the summary lacks the statistic, e.g. p(99), and live).
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';
import {
  parseExpression as parseK6Expression,
  parseMetricKey as parseK6MetricKey,
  ThresholdSyntaxError,
} from '@loadlab/k6-format/thresholds';
import { percentileOfSorted, sortNumbers } from '@loadlab/k6-format/percentile';

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
  values: number[];
  sum: number;
  count: number;
  nonZero: number;
  last: number;
  min: number;
  max: number;
}

/** Collects samples for chosen metric keys so any statistic of them can be computed exactly. */
export class ThresholdTracker {
  private readonly byName = new Map<string, Tracked[]>();

  constructor(keys: Iterable<string>) {
    for (const key of new Set(keys)) {
      const { name, tags } = parseMetricKey(key);
      const list = this.byName.get(name) ?? [];
      list.push({
        key,
        filter: tags,
        values: [],
        sum: 0,
        count: 0,
        nonZero: 0,
        last: 0,
        min: Infinity,
        max: -Infinity,
      });
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
      if (!tagsMatch(t.filter, tags)) continue;
      if (type) t.type = type;
      if (contains) t.contains = contains;
      if (t.type === 'trend' || !t.type) t.values.push(value);
      t.sum += value;
      t.count++;
      if (value !== 0) t.nonZero++;
      t.last = value;
      if (value < t.min) t.min = value;
      if (value > t.max) t.max = value;
    }
  }

  contains(key: string): ValueType | undefined {
    return this.byName.get(parseMetricKey(key).name)?.find((x) => x.key === key)?.contains;
  }

  /** Sample counts of a tracked key (undefined when untracked); `type` is known once a sample arrived. */
  counts(key: string): { type?: MetricType; count: number; nonZero: number } | undefined {
    const t = this.byName.get(parseMetricKey(key).name)?.find((x) => x.key === key);
    return t ? { type: t.type, count: t.count, nonZero: t.nonZero } : undefined;
  }

  /** The observed value of `stat` for `key`, or undefined when the key was not tracked or has no type yet. */
  observed(key: string, stat: string, durationMs: number): number | undefined {
    const t = this.byName.get(parseMetricKey(key).name)?.find((x) => x.key === key);
    if (!t?.type) return undefined;
    const empty = t.count === 0;
    switch (t.type) {
      case 'counter':
        if (stat === 'count') return t.sum;
        if (stat === 'rate') return durationMs > 0 ? t.sum / (durationMs / 1000) : 0;
        return undefined;
      case 'gauge':
        if (stat === 'value') return t.last;
        if (stat === 'min') return empty ? 0 : t.min;
        if (stat === 'max') return empty ? 0 : t.max;
        return undefined;
      case 'rate':
        return stat === 'rate' ? (empty ? 0 : t.nonZero / t.count) : undefined;
      case 'trend': {
        if (stat === 'count') return t.count;
        if (stat === 'avg') return empty ? 0 : t.sum / t.count;
        if (stat === 'min') return empty ? 0 : t.min;
        if (stat === 'max') return empty ? 0 : t.max;
        const sorted = sortNumbers(t.values);
        if (stat === 'med') return percentileOfSorted(sorted, 0.5);
        const p = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
        return p ? percentileOfSorted(sorted, Number(p[1]) / 100) : undefined;
      }
    }
  }
}
