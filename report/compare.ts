// Comparison with the previous run. The noise rule (also in README.md) decides what gets flagged:
// - latency (ms): |delta| >= 20 % of the previous value AND >= 5 ms  (sub-ms jitter on a laptop is not news)
// - error and check rates: |delta| >= 1 percentage point
// - throughput (req/s): |delta| >= 20 %
// - nothing is flagged when either side has fewer than 30 requests (too few to tell noise from change).
import { describeEngine, sameEngine } from './engine-of-run.js';
import type { DeltaRow, Kind, ScenarioComparison, ScenarioReport } from './model.js';

export const NOISE = {
  latencyRel: 0.2,
  latencyAbsMs: 5,
  ratePoints: 0.01,
  throughputRel: 0.2,
  minRequests: 30,
} as const;

function beyondNoise(kind: Kind, prev: number, cur: number): boolean {
  const d = Math.abs(cur - prev);
  if (kind === 'latency') return d >= NOISE.latencyAbsMs && d >= NOISE.latencyRel * Math.abs(prev);
  if (kind === 'rate') return d >= NOISE.ratePoints;
  return prev === 0 ? cur !== 0 : d >= NOISE.throughputRel * Math.abs(prev);
}

function row(
  label: string,
  kind: Kind,
  previous: number | undefined,
  current: number | undefined,
  enough: boolean,
  higherIsBetter = false,
): DeltaRow {
  const delta = previous !== undefined && current !== undefined ? current - previous : undefined;
  let flag: DeltaRow['flag'] = '';
  if (enough && delta !== undefined && beyondNoise(kind, previous as number, current as number))
    flag = delta > 0 === higherIsBetter ? 'better' : 'worse';
  return { label, kind, previous, current, delta, flag };
}

const checksRate = (s: ScenarioReport) => {
  const n = s.totals.checksPassed + s.totals.checksFailed;
  return n ? s.totals.checksPassed / n : undefined;
};

const ranOn = (s: ScenarioReport) => (s.engine ? `ran on ${describeEngine(s.engine)}` : 'recorded no engine');

export function compareScenario(
  current: ScenarioReport,
  previous: ScenarioReport,
  previousRunId: string,
): ScenarioComparison {
  const enough =
    current.totals.requests >= NOISE.minRequests && previous.totals.requests >= NOISE.minRequests;
  const t = (s: ScenarioReport) => s.totals;
  const metrics = [
    row('http_req_duration p(95)', 'latency', t(previous).p95, t(current).p95, enough),
    row('http_req_duration avg', 'latency', t(previous).avg, t(current).avg, enough),
    row('http_req_failed rate', 'rate', t(previous).errorRate, t(current).errorRate, enough),
    row('checks rate', 'rate', checksRate(previous), checksRate(current), enough, true),
    row('http_reqs per second', 'throughput', t(previous).rps, t(current).rps, enough, true),
  ];
  const before = new Map(previous.endpoints.map((e) => [e.name, e]));
  const endpoints = current.endpoints.map((e) => {
    const p = before.get(e.name);
    const ok = enough && p !== undefined && p.count >= NOISE.minRequests && e.count >= NOISE.minRequests;
    return {
      name: e.name,
      rows: [
        row('p95', 'latency', p?.p95, e.p95, ok),
        row('p99', 'latency', p?.p99, e.p99, ok),
        row('error rate', 'rate', p?.errorRate, e.errorRate, ok),
        row('req/s', 'throughput', p?.rps, e.rps, ok, true),
      ],
    };
  });
  // Neither side recorded (files from elsewhere): nothing to tell apart, so no warning.
  const engineWarning =
    sameEngine(previous.engine, current.engine) || (!previous.engine && !current.engine)
      ? undefined
      : `run ${previousRunId} ${ranOn(previous)}, this one ${ranOn(current)}: the numbers are not comparable`;
  return {
    previousRunId,
    ...(engineWarning ? { engineWarning } : {}),
    enoughData: enough,
    metrics,
    endpoints,
  };
}
