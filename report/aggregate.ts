// Folds k6 samples (from an NDJSON file or live from the runner) into what a report shows:
// a per-endpoint table, status and error counts, and 1-second time series. One implementation for
// both paths, so the live dashboard and the final report can never disagree.
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';
import { percentileOfSorted, sortNumbers } from '@loadlab/k6-format/percentile';
import { trendStats } from './stats.js';
import { ThresholdTracker } from './thresholds.js';

export interface EndpointRow {
  name: string;
  count: number;
  rps: number;
  errorRate: number;
  avg: number;
  p50: number;
  p90: number;
  p95: number;
  p99: number;
  max: number;
}

export interface CountRow {
  key: string;
  count: number;
}

/** Parallel arrays, one entry per second, ready for uPlot. `null` = no data in that second. */
export interface Series {
  t: number[]; // epoch seconds
  vus: (number | null)[];
  rps: number[];
  errors: number[]; // failed requests (http_req_failed) per second
  p50: (number | null)[];
  p95: (number | null)[];
  p99: (number | null)[];
}

/** Run-wide numbers for when no summary exists yet (the live dashboard). */
export interface Overall {
  requests: number;
  errorRate: number | undefined;
  avg: number | undefined;
  p95: number | undefined;
  iterations: number;
  vusMax: number | undefined;
  checksPassed: number;
  checksFailed: number;
}

export interface LiveCheck {
  group: string;
  name: string;
  passes: number;
  fails: number;
}

export interface Aggregate {
  overall: Overall;
  checks: LiveCheck[];
  endpoints: EndpointRow[];
  statuses: CountRow[];
  errors: CountRow[];
  series: Series;
  firstMs: number | undefined;
  lastMs: number | undefined;
}

/** Metrics the aggregator itself needs; readers may skip every other line unless a tracker wants it. */
export const AGGREGATED_METRICS: ReadonlySet<string> = new Set([
  'http_reqs',
  'http_req_failed',
  'http_req_duration',
  'vus',
  'iterations',
  'checks',
]);

/** A bucket this many seconds behind the newest one is considered complete. */
const SETTLE_SECONDS = 5;

interface Bucket {
  reqs: number;
  failed: number;
  durations: number[];
  vus: number | null;
  final?: { p50: number | null; p95: number | null; p99: number | null };
}

interface EndpointAcc {
  count: number;
  failed: number;
  failTotal: number;
  durations: number[];
}

export class RunAggregator {
  private readonly buckets = new Map<number, Bucket>();
  private readonly endpoints = new Map<string, EndpointAcc>();
  private readonly statuses = new Map<string, number>();
  private readonly errorCounts = new Map<string, number>();
  private readonly checks = new Map<string, LiveCheck>();
  private iterations = 0;
  private vusMax: number | undefined;
  private firstMs: number | undefined;
  private lastMs: number | undefined;

  constructor(readonly tracker: ThresholdTracker = new ThresholdTracker([])) {}

  wants(metric: string): boolean {
    return AGGREGATED_METRICS.has(metric) || this.tracker.wants(metric);
  }

  add(
    metric: string,
    type: MetricType | undefined,
    timeMs: number,
    value: number,
    tags: Record<string, string>,
    contains?: ValueType,
  ): void {
    this.tracker.add(metric, type, value, tags, contains);
    if (!AGGREGATED_METRICS.has(metric)) return;
    if (this.firstMs === undefined || timeMs < this.firstMs) this.firstMs = timeMs;
    if (this.lastMs === undefined || timeMs > this.lastMs) this.lastMs = timeMs;
    const bucket = this.bucket(Math.floor(timeMs / 1000));
    const name = tags.name ?? tags.url ?? '(unnamed)';
    switch (metric) {
      case 'vus':
        bucket.vus = value;
        if (this.vusMax === undefined || value > this.vusMax) this.vusMax = value;
        return;
      case 'iterations':
        this.iterations += value;
        return;
      case 'checks': {
        const group = tags.group ?? '';
        const key = `${group}\u0000${tags.check ?? ''}`;
        let c = this.checks.get(key);
        if (!c) {
          c = { group, name: tags.check ?? '', passes: 0, fails: 0 };
          this.checks.set(key, c);
        }
        if (value !== 0) c.passes++;
        else c.fails++;
        return;
      }
      case 'http_reqs': {
        bucket.reqs += value;
        this.endpoint(name).count += value;
        const status = tags.status ?? '(none)';
        this.statuses.set(status, (this.statuses.get(status) ?? 0) + value);
        const error = describeError(tags);
        if (error) this.errorCounts.set(error, (this.errorCounts.get(error) ?? 0) + value);
        return;
      }
      case 'http_req_failed': {
        const acc = this.endpoint(name);
        acc.failTotal++;
        if (value !== 0) {
          acc.failed++;
          bucket.failed++;
        }
        return;
      }
      case 'http_req_duration':
        bucket.durations.push(value);
        this.endpoint(name).durations.push(value);
        return;
    }
  }

  /** Time between the first and the last aggregated sample. */
  spanMs(): number {
    return this.firstMs !== undefined && this.lastMs !== undefined ? this.lastMs - this.firstMs : 0;
  }

  /** The aggregate so far. `durationMs` (the run's length) turns counts into per-second rates. */
  result(durationMs?: number, topErrors = 10): Aggregate {
    const spanMs = durationMs ?? (this.firstMs !== undefined ? (this.lastMs as number) - this.firstMs : 0);
    const seconds = spanMs > 0 ? spanMs / 1000 : 1;
    const endpoints = [...this.endpoints].map(([name, acc]): EndpointRow => {
      const s = trendStats(acc.durations);
      return {
        name,
        count: acc.count,
        rps: acc.count / seconds,
        errorRate: acc.failTotal ? acc.failed / acc.failTotal : 0,
        avg: s.avg,
        p50: s.med,
        p90: s.p90,
        p95: s.p95,
        p99: s.p99,
        max: s.max,
      };
    });
    endpoints.sort((a, b) => b.count - a.count || a.name.localeCompare(b.name));
    const all: number[] = [];
    let failed = 0;
    let failTotal = 0;
    for (const acc of this.endpoints.values()) {
      for (const d of acc.durations) all.push(d);
      failed += acc.failed;
      failTotal += acc.failTotal;
    }
    const overallStats = trendStats(all);
    const checks = [...this.checks.values()];
    return {
      overall: {
        requests: endpoints.reduce((sum, e) => sum + e.count, 0),
        errorRate: failTotal ? failed / failTotal : undefined,
        avg: all.length ? overallStats.avg : undefined,
        p95: all.length ? overallStats.p95 : undefined,
        iterations: this.iterations,
        vusMax: this.vusMax,
        checksPassed: checks.reduce((sum, c) => sum + c.passes, 0),
        checksFailed: checks.reduce((sum, c) => sum + c.fails, 0),
      },
      checks: checks.map((c) => ({ ...c })),
      endpoints,
      statuses: topCounts(this.statuses, Infinity).sort((a, b) => a.key.localeCompare(b.key)),
      errors: topCounts(this.errorCounts, topErrors),
      series: this.series(),
      firstMs: this.firstMs,
      lastMs: this.lastMs,
    };
  }

  private series(): Series {
    const out: Series = { t: [], vus: [], rps: [], errors: [], p50: [], p95: [], p99: [] };
    if (this.buckets.size === 0) return out;
    const secs = [...this.buckets.keys()];
    const from = Math.min(...secs);
    const to = Math.max(...secs);
    for (let sec = from; sec <= to; sec++) {
      const b = this.buckets.get(sec);
      out.t.push(sec);
      out.vus.push(b?.vus ?? null);
      out.rps.push(b?.reqs ?? 0);
      out.errors.push(b?.failed ?? 0);
      const q = b ? this.quantiles(b, sec < to - SETTLE_SECONDS) : { p50: null, p95: null, p99: null };
      out.p50.push(q.p50);
      out.p95.push(q.p95);
      out.p99.push(q.p99);
    }
    return out;
  }

  private quantiles(b: Bucket, settled: boolean): NonNullable<Bucket['final']> {
    if (b.final) return b.final;
    const s = sortNumbers(b.durations);
    const q = s.length
      ? {
          p50: percentileOfSorted(s, 0.5),
          p95: percentileOfSorted(s, 0.95),
          p99: percentileOfSorted(s, 0.99),
        }
      : { p50: null, p95: null, p99: null };
    // Seconds well behind the newest get no more samples (k6 samples arrive at most a few seconds late);
    // cache their quantiles so live snapshots stay cheap.
    if (settled) {
      b.final = q;
      b.durations = [];
    }
    return q;
  }

  private bucket(sec: number): Bucket {
    let b = this.buckets.get(sec);
    if (!b) {
      b = { reqs: 0, failed: 0, durations: [], vus: null };
      this.buckets.set(sec, b);
    }
    return b;
  }

  private endpoint(name: string): EndpointAcc {
    let e = this.endpoints.get(name);
    if (!e) {
      e = { count: 0, failed: 0, failTotal: 0, durations: [] };
      this.endpoints.set(name, e);
    }
    return e;
  }
}

/** What went wrong with one request, in words: k6's `error` tag for network errors, else the HTTP status. */
export function describeError(tags: Record<string, string>): string | undefined {
  const code = tags.error_code ? ` (error_code ${tags.error_code})` : '';
  if (tags.error) return `${tags.error}${code}`;
  const status = Number(tags.status);
  if (tags.status === '0') return `network error, status 0${code}`;
  if (status >= 400) return `HTTP ${status}${code}`;
  return undefined;
}

function topCounts(map: Map<string, number>, n: number): CountRow[] {
  const rows = [...map]
    .map(([key, count]) => ({ key, count }))
    .sort((a, b) => b.count - a.count || a.key.localeCompare(b.key));
  if (rows.length <= n) return rows;
  const other = rows.slice(n).reduce((sum, r) => sum + r.count, 0);
  return [...rows.slice(0, n), { key: 'other', count: other }];
}
