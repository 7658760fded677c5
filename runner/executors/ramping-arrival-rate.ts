import { formatDuration } from '@loadlab/k6-format/duration';
import { maxVusFact, runArrivals, timeUnitError, vuColumn, vuPoolErrors } from './arrival-rate.js';
import {
  describeRate,
  errorsOf,
  stagesErrors,
  perSecond,
  stagesDurationMs,
  steadySteps,
  timeColumn,
  type Executor,
} from './executor.js';
import { fixedRate } from './fixed-width.js';
import { rampingArrivalsBy, rampingTickerRate } from './schedule.js';

const topRate = (s: { startRate: number; stages: { target: number }[] }) =>
  Math.max(s.startRate, ...s.stages.map((x) => x.target));

/** ramping-arrival-rate (k6 lib/executor/ramping_arrival_rate.go): a rate from startRate through each stage's target. */
export const rampingArrivalRate: Executor = {
  name: 'ramping-arrival-rate',
  validate: (s, raw) => [
    ...errorsOf(s.startRate < 0 ? "the startRate value can't be negative" : undefined, timeUnitError(s)),
    ...stagesErrors(raw.stages),
    ...vuPoolErrors(s, raw),
  ],
  durationMs: stagesDurationMs,
  maxVus: (s) => s.maxVUs,
  executionSteps: (s) => steadySteps(s, stagesDurationMs(s), s.preAllocatedVUs, s.maxVUs),
  describe: (s) => ({
    head: `Up to ${describeRate(s, topRate(s))} for ${formatDuration(stagesDurationMs(s))} over ${s.stages.length} stages`,
    extras: [maxVusFact(s)],
  }),
  totalIterations: () => undefined,
  progress(snap, now) {
    const c = snap.config;
    const spent = now - snap.startedAt;
    const duration = stagesDurationMs(c);
    const rate = fixedRate(rampingTickerRate(c, Math.min(spent, duration)), perSecond(c, topRate(c)));
    return {
      progress: Math.min(1, spent / duration),
      right: [vuColumn(snap), timeColumn(spent, duration), `${rate} iters/s`],
    };
  },
  arrivalsBy: rampingArrivalsBy,
  run: (driver, end) => runArrivals(driver, end, rampingArrivalsBy),
};
