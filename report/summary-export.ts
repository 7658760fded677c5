// k6's `--summary-export` file (k6.md §1.5, oldJSONSummary in k6's summary-wrapper.js) read as the
// handleSummary data the report uses: users of plain k6 have this file (the project's own
// `npm run test:ci` writes one), so the report reads it instead of refusing it.
// What the export dropped is rebuilt where k6's format allows it and left out where it does not:
// - a metric's type from its values (rate: passes/fails/value, counter: count/rate, gauge:
//   value/min/max, trend: avg/min/med/max/p(..)); `value` of a rate is `rate` again;
// - `contains` only for k6's built-in time and data metrics (a custom trend's unit is not in the file);
// - thresholds `{src: failed}` become `{src: {ok: !failed}}`;
// - the run's duration from a counter's count / rate (k6 computes that rate over the run's duration).
import { HTTP_TIMING_METRICS } from '@loadlab/k6-format/http-timings';
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';
import { ReportInputError } from './errors.js';
import type { SummaryCheck, SummaryData, SummaryGroup, SummaryMetric } from '@loadlab/k6-format/summary';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** k6's built-in metrics that are not `default` values (the export has no `contains`). */
const BUILTIN_CONTAINS: Record<string, ValueType> = {
  ...Object.fromEntries(HTTP_TIMING_METRICS.map((name) => [name, 'time' as const])),
  iteration_duration: 'time',
  group_duration: 'time',
  data_sent: 'data',
  data_received: 'data',
};

/** True when `raw` has the export's shape: metrics whose entries are flat values, not `{type, values}`. */
export function looksLikeSummaryExport(raw: Record<string, unknown>): boolean {
  if (!isObject(raw.metrics)) return false;
  const first = Object.values(raw.metrics)[0];
  return isObject(first) && !('values' in first) && !('type' in first);
}

function typeOf(values: Record<string, unknown>): MetricType | undefined {
  if ('passes' in values && 'fails' in values) return 'rate';
  if ('count' in values && 'rate' in values) return 'counter';
  if ('avg' in values || 'med' in values) return 'trend';
  if ('value' in values) return 'gauge';
  return undefined;
}

function metricFromExport(name: string, flat: Record<string, unknown>, source: string): SummaryMetric {
  const { thresholds, ...rest } = flat;
  const type = typeOf(rest);
  if (!type) throw new ReportInputError(`${source}: metric ${name} has values of no k6 metric type`);
  const values: Record<string, number> = {};
  for (const [k, v] of Object.entries(rest))
    if (typeof v === 'number') values[type === 'rate' && k === 'value' ? 'rate' : k] = v;
  const metric: SummaryMetric = {
    type,
    contains: BUILTIN_CONTAINS[name.replace(/\{.*$/, '')] ?? 'default',
    values,
  };
  if (isObject(thresholds))
    metric.thresholds = Object.fromEntries(
      Object.entries(thresholds).map(([src, failed]) => [src, { ok: failed !== true }]),
    );
  return metric;
}

function groupFromExport(raw: Record<string, unknown>): SummaryGroup {
  const checks: SummaryCheck[] = Object.values(isObject(raw.checks) ? raw.checks : {})
    .filter(isObject)
    .map((c) => ({
      name: String(c.name ?? ''),
      path: String(c.path ?? ''),
      id: typeof c.id === 'string' ? c.id : '',
      passes: Number(c.passes ?? 0),
      fails: Number(c.fails ?? 0),
    }));
  const groups = Object.values(isObject(raw.groups) ? raw.groups : {})
    .filter(isObject)
    .map(groupFromExport);
  return {
    name: String(raw.name ?? ''),
    path: String(raw.path ?? ''),
    id: typeof raw.id === 'string' ? raw.id : '',
    groups,
    checks,
  };
}

/** The export as handleSummary data; throws ReportInputError with a one-line reason. */
export function fromSummaryExport(raw: Record<string, unknown>, source: string): SummaryData {
  const metrics: Record<string, SummaryMetric> = {};
  for (const [name, flat] of Object.entries(raw.metrics as Record<string, unknown>)) {
    if (!isObject(flat)) throw new ReportInputError(`${source}: metric ${name} is not an object`);
    metrics[name] = metricFromExport(name, flat, source);
  }
  // count / rate of any counter is the duration k6 divided by; iterations is there in every run.
  const counters = ['iterations', 'http_reqs', ...Object.keys(metrics)].map((n) => metrics[n]);
  const counter = counters.find((m) => m?.type === 'counter' && m.values.rate! > 0 && m.values.count! > 0);
  const testRunDurationMs = counter
    ? ((counter.values.count as number) / (counter.values.rate as number)) * 1000
    : 0;
  return {
    root_group: isObject(raw.root_group)
      ? groupFromExport(raw.root_group)
      : { name: '', path: '', id: '', groups: [], checks: [] },
    // The export keeps neither options nor state: k6's defaults, for a run without a terminal.
    options: {
      summaryTrendStats: ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'],
      summaryTimeUnit: '',
      noColor: false,
    },
    state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs },
    metrics,
    setup_data: raw.setup_data,
  };
}
