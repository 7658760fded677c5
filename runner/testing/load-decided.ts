// What the load decides, kept apart from what the engines decide. On a busy machine (the CI layout:
// real k6 beside the runner on two shared cores) a latency threshold can be crossed by either engine
// and a web vital rated differently, with both engines doing exactly what k6 does: real k6 itself
// crossed secured-api's http_req_duration p(95)<1500 at 2.31 s. A side-by-side comparison must not
// depend on how fast the machine is, so these are told apart from real differences:
// - a threshold on a time metric (contains: time): its verdict follows the measured durations;
// - exit 99 when every crossed threshold is such a one (the verdict of the load, not of the engine).
// Threshold verdicts on counts and rates (checks, http_req_failed, custom rates) still must agree.
import { EXIT } from '@loadlab/k6-format/exit-codes';
import type { SummaryData } from './run-shape.js';

/** Crossed thresholds of a run as `metric: source`, and whether each is on a time metric. */
function crossed(data: SummaryData | undefined): { key: string; timed: boolean }[] {
  const out: { key: string; timed: boolean }[] = [];
  for (const [metric, m] of Object.entries(data?.metrics ?? {}))
    for (const [source, t] of Object.entries(m.thresholds ?? {}))
      if (!t.ok) out.push({ key: `${metric}: ${source}`, timed: m.contains === 'time' });
  return out;
}

/** True when the run failed only because the machine was slow: exit 99, and only time thresholds crossed. */
export function failedOnTimingOnly(code: number | null, data: SummaryData | undefined): boolean {
  const all = crossed(data);
  return code === EXIT.thresholds && all.length > 0 && all.every((c) => c.timed);
}

/** The time thresholds a run crossed, for the test's log (said, not hidden). */
export function crossedTimeThresholds(data: SummaryData | undefined): string[] {
  return crossed(data)
    .filter((c) => c.timed)
    .map((c) => c.key);
}

/**
 * Whether one line of diffShapes() is a difference the load made: a time threshold's verdict, or the
 * exit code when each side either passed or failed on time thresholds only.
 */
export function loadDecided(
  difference: string,
  runs: {
    k6: { code: number | null; data?: SummaryData };
    node: { code: number | null; data?: SummaryData };
  },
): boolean {
  const threshold = /^metric (.+?): threshold .+ ok \S+=(?:true|false) \S+=(?:true|false)$/.exec(difference);
  if (threshold) {
    const metric = threshold[1] as string;
    const contains = runs.k6.data?.metrics[metric]?.contains ?? runs.node.data?.metrics[metric]?.contains;
    return contains === 'time';
  }
  if (/^exit code: /.test(difference)) {
    const okOrTiming = (r: { code: number | null; data?: SummaryData }) =>
      r.code === 0 || failedOnTimingOnly(r.code, r.data);
    return okOrTiming(runs.k6) && okOrTiming(runs.node);
  }
  return false;
}
