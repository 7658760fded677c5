// The report model: everything the renderers (Markdown, HTML, JUnit) and the live dashboard show,
// built from k6's handleSummary data plus its `--out json` time series.
import { EXIT } from '@loadlab/k6-format/exit-codes';
import { summarySamples } from '@loadlab/k6-format/summary';
import { RunAggregator, type Aggregate } from './aggregate.js';
import { describeEngine, readEngine, type EngineInfo } from './engine-of-run.js';
import { readNdjson } from './ndjson.js';
import type { MetricType } from '@loadlab/k6-format/samples';
import {
  flattenChecks,
  readSummary,
  summaryThresholds,
  type CheckRow,
  type SummaryData,
  type SummaryMetric,
} from './summary.js';
import { parseExpression, ThresholdTracker } from './thresholds.js';

// The comparison with a previous run (filled by compare.ts).
export type Kind = 'latency' | 'rate' | 'throughput';

export interface DeltaRow {
  label: string;
  kind: Kind;
  previous: number | undefined;
  current: number | undefined;
  delta: number | undefined;
  /** Beyond noise, and which way: higher latency or error rate = worse; higher throughput or check rate = better. */
  flag: 'worse' | 'better' | '';
}

export interface ScenarioComparison {
  previousRunId: string;
  /** Set when the two runs did not use the same engine (or one does not say): their numbers differ for that alone. */
  engineWarning?: string;
  enoughData: boolean;
  metrics: DeltaRow[];
  endpoints: { name: string; rows: DeltaRow[] }[];
}

export interface ThresholdRow {
  metric: string;
  source: string;
  stat?: string;
  op?: string;
  limit?: number;
  /** What the run measured for this statistic; undefined when neither the summary nor the series has it. */
  observed?: number;
  unit: 'ms' | 'B' | '';
  /** The metric's k6 type: a `rate` metric's observed value is a fraction, a counter's `rate` is per second. */
  type?: MetricType;
  /** Samples of the metric (with the key's tag filter) when known; 0 means k6 evaluated an empty metric. */
  samples?: number;
  /** Rate metrics: how many of those samples were non-zero (k6's `passes`). */
  hits?: number;
  ok: boolean;
  /** Live only: not evaluated yet. */
  pending?: boolean;
}

export interface Totals {
  durationMs: number;
  requests: number;
  rps: number;
  errorRate: number | undefined;
  p95: number | undefined;
  avg: number | undefined;
  checksPassed: number;
  checksFailed: number;
  iterations: number;
  vusMax: number | undefined;
}

export interface ScenarioReport {
  scenario: string;
  runId?: string;
  passed: boolean;
  /** Why the scenario failed, in words (crossed thresholds, exit code, missing summary). */
  problems: string[];
  totals: Totals;
  thresholds: ThresholdRow[];
  checks: CheckRow[];
  endpoints: Aggregate['endpoints'];
  statuses: Aggregate['statuses'];
  errors: Aggregate['errors'];
  series?: Aggregate['series'];
  /** Latency thresholds on http_req_duration, drawn as lines on the latency chart. */
  latencyLimits: { label: string; value: number }[];
  comparison?: ScenarioComparison;
  /** Which engine ran it (from run-k6.sh's log line); undefined when no log says. */
  engine?: EngineInfo;
}

/** An input file the report could not read, and why (one line). */
export interface SkippedInput {
  scenario: string;
  reason: string;
}

export interface Report {
  title: string;
  generatedAt: string;
  runId?: string;
  passed: boolean;
  scenarios: ScenarioReport[];
  /** Inputs left out because they could not be read; the report says so. */
  skipped?: SkippedInput[];
}

export interface RunInput {
  scenario: string;
  runId?: string;
  summaryPath?: string;
  seriesPath?: string;
  /** The engine's exit code when known (test:report): non-zero fails the scenario even with green thresholds. */
  exitCode?: number;
  /** run-k6.sh's output for this run (default: `<stem>.log` beside the summary or series). */
  logPath?: string;
}

const num = (v: number | undefined) => (typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/**
 * How many samples stand behind a threshold's observed value. k6 reports an empty trend as all zeros
 * (p(95)=0 passes `p(95)<500`), which a reader would take for a real measurement; a time trend whose
 * avg, min and max are all exactly 0 has no samples (no request takes 0 ms).
 */
function sampleCounts(
  metric: SummaryMetric | undefined,
  tracked: { type?: MetricType; count: number; nonZero: number } | undefined,
): { samples?: number; hits?: number } {
  if (metric) return summarySamples(metric);
  if (tracked?.count === 0) return { samples: 0 };
  if (tracked?.type === 'rate') return { samples: tracked.count, hits: tracked.nonZero };
  if (tracked?.type === 'trend') return { samples: tracked.count };
  return {};
}

/** Builds one scenario's part of the report from its files. */
export async function buildScenarioReport(input: RunInput): Promise<ScenarioReport> {
  const summary = input.summaryPath ? await readSummary(input.summaryPath) : undefined;
  const rows = summary ? summaryThresholds(summary) : [];
  // Only statistics the summary lacks (e.g. p(99) with default summaryTrendStats) need raw samples.
  const missing = rows.filter((r) => {
    const e = parseExpression(r.source);
    return e && num(summary?.metrics[r.metric]?.values[e.stat]) === undefined;
  });
  const tracker = new ThresholdTracker(missing.map((r) => r.metric));
  const aggregator = new RunAggregator(tracker);
  if (input.seriesPath) {
    // A metric k6 declared but never sampled is in the summary, not the series: its statistic is k6's 0.
    for (const r of missing) {
      const type = summary?.metrics[r.metric]?.type;
      if (type) tracker.declare(r.metric, type);
    }
    await readNdjson(input.seriesPath, aggregator);
  }
  const engine = await readEngine(input);
  const report = scenarioFromParts(input, summary, aggregator);
  return engine ? { ...report, engine: { ...engine, label: describeEngine(engine) } } : report;
}

/** Shared with the live dashboard, which has an aggregator but (until the end) no summary. */
export function scenarioFromParts(
  input: Pick<RunInput, 'scenario' | 'runId' | 'exitCode' | 'seriesPath'>,
  summary: SummaryData | undefined,
  aggregator: RunAggregator,
  live?: { thresholds: { metric: string; source: string; ok: boolean; pending?: boolean }[] },
): ScenarioReport {
  const durationMs = summary?.state.testRunDurationMs ?? aggregator.spanMs();
  const agg = aggregator.result(durationMs);
  const m = summary?.metrics ?? {};
  const defined = summary ? summaryThresholds(summary) : (live?.thresholds ?? []);
  const thresholds: ThresholdRow[] = defined.map((t) => {
    const e = parseExpression(t.source);
    const metric = m[t.metric];
    const observed = e
      ? (num(metric?.values[e.stat]) ?? aggregator.tracker.observed(t.metric, e.stat, durationMs))
      : undefined;
    const contains = metric?.contains ?? aggregator.tracker.contains(t.metric);
    const unit =
      contains === 'time' && e && e.stat !== 'count' && e.stat !== 'rate'
        ? 'ms'
        : contains === 'data' && e?.stat !== 'rate'
          ? 'B'
          : '';
    const row: ThresholdRow = {
      metric: t.metric,
      source: t.source,
      stat: e?.stat,
      op: e?.op,
      limit: e?.limit,
      observed,
      unit,
      type: metric?.type ?? aggregator.tracker.counts(t.metric)?.type,
      ...sampleCounts(metric, aggregator.tracker.counts(t.metric)),
      ok: t.ok,
    };
    if ('pending' in t && t.pending) row.pending = true;
    return row;
  });
  const checks = summary ? flattenChecks(summary.root_group) : agg.checks;
  const problems: string[] = [];
  if (!summary && !live) problems.push('no summary was written (the run did not finish)');
  for (const t of thresholds.filter((x) => !x.ok))
    problems.push(`threshold ${t.metric}: ${t.source} crossed`);
  // k6's "thresholds crossed" exit: already listed above when the summary shows which ones.
  const explained = input.exitCode === EXIT.thresholds && thresholds.some((t) => !t.ok);
  if (input.exitCode !== undefined && input.exitCode !== 0 && !explained)
    problems.push(`engine exited with code ${input.exitCode}`);
  const latencyLimits = thresholds
    .filter((t) => t.metric === 'http_req_duration' && t.limit !== undefined && t.op?.startsWith('<'))
    .map((t) => ({ label: t.source, value: t.limit as number }));
  return {
    scenario: input.scenario,
    runId: input.runId,
    passed: problems.length === 0,
    problems,
    totals: summary
      ? {
          durationMs,
          requests: num(m.http_reqs?.values.count) ?? 0,
          rps: num(m.http_reqs?.values.rate) ?? 0,
          errorRate: num(m.http_req_failed?.values.rate),
          p95: num(m.http_req_duration?.values['p(95)']),
          avg: num(m.http_req_duration?.values.avg),
          checksPassed: num(m.checks?.values.passes) ?? 0,
          checksFailed: num(m.checks?.values.fails) ?? 0,
          iterations: num(m.iterations?.values.count) ?? 0,
          vusMax: num(m.vus_max?.values.max) ?? num(m.vus?.values.max),
        }
      : {
          durationMs,
          ...agg.overall,
          rps: durationMs > 0 ? agg.overall.requests / (durationMs / 1000) : 0,
        },
    thresholds,
    checks,
    endpoints: agg.endpoints,
    statuses: agg.statuses,
    errors: agg.errors,
    series: input.seriesPath !== undefined || agg.series.t.length > 0 ? agg.series : undefined,
    latencyLimits,
  };
}

export function buildReport(
  scenarios: ScenarioReport[],
  opts: { title?: string; runId?: string; now?: Date; skipped?: SkippedInput[] } = {},
): Report {
  return {
    title: opts.title ?? 'Load test report',
    generatedAt: (opts.now ?? new Date()).toISOString(),
    runId: opts.runId,
    passed: scenarios.length > 0 && scenarios.every((s) => s.passed),
    scenarios,
    ...(opts.skipped?.length ? { skipped: opts.skipped } : {}),
  };
}
