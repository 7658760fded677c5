import { formatDuration } from '@loadlab/k6-format/duration';
import { maxVusError, maxVusFact, runArrivals, vuColumn, vuPoolError } from './arrival-rate.js';
import { describeRate, perSecond, steadySteps, timeColumn, type Executor } from './executor.js';
import { fixedRate } from './fixed-width.js';
import { constantArrivalsBy } from './schedule.js';

/** constant-arrival-rate (k6 lib/executor/constant_arrival_rate.go): `rate` iterations per timeUnit for `duration`. */
export const constantArrivalRate: Executor = {
  name: 'constant-arrival-rate',
  validate(s, raw) {
    return (
      vuPoolError(raw) ??
      (!(s.rate > 0) ? 'the rate should be more than 0' : undefined) ??
      (!(s.durationMs > 0) ? 'the duration should be more than 0' : undefined) ??
      maxVusError(s)
    );
  },
  durationMs: (s) => s.durationMs,
  maxVus: (s) => s.maxVUs,
  executionSteps: (s) => steadySteps(s, s.durationMs, s.preAllocatedVUs, s.maxVUs),
  describe: (s) => ({
    head: `${describeRate(s, s.rate)} for ${formatDuration(s.durationMs)}`,
    extras: [maxVusFact(s)],
  }),
  totalIterations: () => undefined,
  progress(snap, now) {
    const c = snap.config;
    const spent = now - snap.startedAt;
    const rate = fixedRate(perSecond(c, c.rate), perSecond(c, c.rate));
    return {
      progress: Math.min(1, spent / c.durationMs),
      right: [vuColumn(snap), timeColumn(spent, c.durationMs), `${rate} iters/s`],
    };
  },
  arrivalsBy: constantArrivalsBy,
  run: (driver, end) => runArrivals(driver, end, constantArrivalsBy),
};
