// The metrics engine: every sample goes through here once. It keeps one sink per metric and per
// sub-metric that thresholds (or k6 itself) ask for, builds the check/group tree, evaluates
// thresholds with k6's semantics, and produces the handleSummary data.
import type { MetricInfo, MetricType, Sample, ThresholdStates, ValueType } from '../contracts.js';
import { BUILTIN_METRICS } from './builtin.js';
import { GroupTree } from './group-tree.js';
import { SectionAggregator, type SummarySections } from './sections.js';
import { createSink, summaryValues, thresholdInput, type AnySink } from '@loadlab/k6-format/sinks';
import {
  compare,
  parseMetricKey,
  validateAggregation,
  ThresholdSyntaxError,
  type ThresholdDef,
} from '@loadlab/k6-format/thresholds';
import type { SummaryData, SummaryMetric } from '@loadlab/k6-format/summary';

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

interface SubMetric {
  key: string;
  tags: [string, string][];
  sink?: AnySink;
}

interface MetricEntry {
  name: string;
  type: MetricType;
  contains: ValueType;
  sink: AnySink;
  subs: SubMetric[];
}

interface ThresholdState {
  def: ThresholdDef;
  metricName: string;
  ok: boolean;
  /** Last observed value of the aggregation (for the text summary). */
  observed?: number;
}

export interface Evaluation {
  states: ThresholdStates;
  failedMetrics: string[];
  abort: boolean;
}

export class MetricsEngine {
  private readonly metrics = new Map<string, MetricEntry>();
  private readonly subKeysByParent = new Map<string, SubMetric[]>();
  private readonly thresholds: ThresholdState[];
  /** Custom metrics the init context declared, so a threshold on one that never got a sample still runs. */
  private readonly declared = new Map<string, { type: MetricType; contains: ValueType }>();
  private readonly trendStats: string[];
  readonly tree = new GroupTree();
  /** Per-group and per-scenario aggregates for the full text summary; undefined when not wanted. */
  private readonly sections: SectionAggregator | undefined;
  /** First threshold that does not apply to its metric's type, found when the metric appears. */
  fatal: ThresholdSyntaxError | undefined;

  constructor(opts: {
    thresholds: ThresholdDef[];
    summaryTrendStats?: string[];
    noThresholds?: boolean;
    /**
     * Keep per-group and per-scenario aggregates (the `full` summary's sections). Off by default:
     * they hold a second copy of every trend value of a named scenario or group.
     */
    sectionAggregates?: boolean;
  }) {
    this.trendStats = opts.summaryTrendStats ?? DEFAULT_TREND_STATS;
    this.sections = opts.sectionAggregates ? new SectionAggregator() : undefined;
    const defs = opts.noThresholds ? [] : opts.thresholds;
    this.thresholds = defs.map((def) => ({ def, metricName: parseMetricKey(def.metricKey).name, ok: true }));
    const subKeys = new Set(defs.map((d) => d.metricKey).filter((k) => k.includes('{')));
    subKeys.add('http_req_duration{expected_response:true}');
    for (const key of subKeys) {
      const { name, tags } = parseMetricKey(key);
      const list = this.subKeysByParent.get(name) ?? [];
      list.push({ key, tags });
      this.subKeysByParent.set(name, list);
    }
    for (const t of this.thresholds) {
      const builtin = BUILTIN_METRICS[t.metricName];
      if (builtin) validateAggregation(t.def, t.def.metricKey, builtin.type);
    }
  }

  /**
   * Checks that every threshold names a metric that exists (built-in or declared by the script),
   * as k6 does before the test starts.
   */
  validateAgainst(declared: { name: string; type: MetricType; contains?: ValueType }[]): void {
    const types = new Map(declared.map((d) => [d.name, d.type]));
    for (const d of declared) this.declared.set(d.name, { type: d.type, contains: d.contains ?? 'default' });
    for (const t of this.thresholds) {
      const type = BUILTIN_METRICS[t.metricName]?.type ?? types.get(t.metricName);
      if (!type) {
        throw new ThresholdSyntaxError(
          `invalid threshold defined on ${t.def.metricKey}; reason: no metric name "${t.metricName}" found`,
        );
      }
      validateAggregation(t.def, t.def.metricKey, type);
    }
  }

  private entry(name: string, type: MetricType, contains: ValueType): MetricEntry {
    let entry = this.metrics.get(name);
    if (entry) return entry;
    entry = { name, type, contains, sink: createSink(type), subs: this.subKeysByParent.get(name) ?? [] };
    for (const sub of entry.subs) sub.sink = createSink(type);
    this.metrics.set(name, entry);
    for (const t of this.thresholds) {
      if (t.metricName !== name) continue;
      try {
        validateAggregation(t.def, t.def.metricKey, type);
      } catch (error) {
        this.fatal ??= error as ThresholdSyntaxError;
      }
    }
    return entry;
  }

  add(samples: readonly Sample[]): void {
    for (const s of samples) {
      const entry = this.entry(s.metric, s.type, s.contains);
      entry.sink.add(s.value);
      for (const sub of entry.subs) {
        if (sub.tags.every(([k, v]) => s.tags[k] === v)) sub.sink!.add(s.value);
      }
      if (s.metric === 'checks' && s.tags.check !== undefined) {
        this.tree.check(s.tags.group ?? '', s.tags.check, s.value !== 0);
      } else if (s.metric === 'group_duration' && s.tags.group) {
        this.tree.group(s.tags.group);
      }
      this.sections?.add(s);
    }
  }

  /** The GROUP and SCENARIO sections of k6's full summary; empty when aggregates are off. */
  summarySections(testRunDurationMs: number): SummarySections {
    return this.sections?.sections(testRunDurationMs, this.trendStats) ?? { groups: [], scenarios: [] };
  }

  metricInfos(): MetricInfo[] {
    return [...this.metrics.values()].map((m) => ({
      name: m.name,
      type: m.type,
      contains: m.contains,
      thresholds: this.thresholds.filter((t) => t.metricName === m.name).map((t) => t.def.source),
    }));
  }

  /** The sink a threshold reads, created empty for metrics that never got a sample. */
  private sinkFor(t: ThresholdState): AnySink | undefined {
    const kind = this.metrics.get(t.metricName) ?? this.knownKind(t.metricName);
    if (!kind) return undefined;
    const entry = this.entry(t.metricName, kind.type, kind.contains);
    if (!t.def.metricKey.includes('{')) return entry.sink;
    return entry.subs.find((s) => s.key === t.def.metricKey)?.sink;
  }

  private knownKind(name: string): { type: MetricType; contains: ValueType } | undefined {
    // k6 registers a custom metric when init declares it: its thresholds are evaluated at the end
    // even without samples (a Counter at count=0 fails `count>0`).
    return BUILTIN_METRICS[name] ?? this.declared.get(name);
  }

  evaluate(opts: { final: boolean; elapsedMs: number }): Evaluation {
    const failed = new Set<string>();
    let abort = false;
    for (const t of this.thresholds) {
      const sink = this.sinkFor(t);
      if (!sink || (sink.count === 0 && !opts.final)) continue;
      const observed = thresholdInput(sink, t.def.aggregation, opts.elapsedMs / 1000);
      t.observed = observed;
      // A rate without samples has no value, and a missing value passes (k6 engine semantics).
      t.ok = observed === undefined ? true : compare(observed, t.def.operator, t.def.value);
      if (t.ok) continue;
      failed.add(t.def.metricKey);
      if (
        !opts.final &&
        t.def.abortOnFail &&
        (t.def.delayAbortEvalMs === 0 || opts.elapsedMs > t.def.delayAbortEvalMs)
      ) {
        abort = true;
      }
    }
    return { states: this.thresholdStates(), failedMetrics: [...failed].sort(), abort };
  }

  thresholdStates(): ThresholdStates {
    const states: ThresholdStates = {};
    for (const t of this.thresholds) (states[t.def.metricKey] ??= {})[t.def.source] = { ok: t.ok };
    return states;
  }

  /** Observed threshold values by metric key and aggregation, for p(N) not in summaryTrendStats. */
  thresholdObservations(): Record<string, Record<string, number>> {
    const out: Record<string, Record<string, number>> = {};
    for (const t of this.thresholds) {
      if (t.observed !== undefined) (out[t.def.metricKey] ??= {})[t.def.aggregation] = t.observed;
    }
    return out;
  }

  summaryData(input: {
    options?: Record<string, unknown>;
    testRunDurationMs: number;
    setupData?: unknown;
    isStdOutTTY: boolean;
    isStdErrTTY: boolean;
    noColor?: boolean;
    summaryTimeUnit?: string;
  }): SummaryData {
    // Thresholds on metrics without samples still show their (empty) metric, as in k6.
    for (const t of this.thresholds) this.sinkFor(t);
    const seconds = input.testRunDurationMs / 1000;
    const states = this.thresholdStates();
    const metrics: Record<string, SummaryMetric> = {};
    const put = (key: string, entry: MetricEntry, sink: AnySink) => {
      const metric: SummaryMetric = {
        type: entry.type,
        contains: entry.contains,
        values: summaryValues(entry.type, sink, seconds, this.trendStats),
      };
      if (states[key]) metric.thresholds = states[key];
      metrics[key] = metric;
    };
    for (const entry of this.metrics.values()) {
      const hasThresholds = states[entry.name] !== undefined || entry.subs.some((s) => states[s.key]);
      if (entry.sink.count > 0 || hasThresholds) put(entry.name, entry, entry.sink);
      for (const sub of entry.subs) {
        if (sub.sink && (sub.sink.count > 0 || states[sub.key])) put(sub.key, entry, sub.sink);
      }
    }
    const data: SummaryData = {
      root_group: this.tree.root,
      options: {
        summaryTrendStats: this.trendStats,
        summaryTimeUnit: input.summaryTimeUnit ?? '',
        noColor: input.noColor ?? false,
      },
      state: {
        isStdOutTTY: input.isStdOutTTY,
        isStdErrTTY: input.isStdErrTTY,
        testRunDurationMs: input.testRunDurationMs,
      },
      metrics,
    };
    if (input.setupData !== undefined) data.setup_data = JSON.parse(JSON.stringify(input.setupData));
    return data;
  }
}
