import { formatDuration } from '@loadlab/k6-format/duration';
import { maxVusFact, runArrivals, timeUnitError, vuColumn, vuPoolErrors } from './arrival-rate.js';
import {
  describeRate,
  errorsOf,
  minDurationError,
  perSecond,
  steadySteps,
  timeColumn,
  type Executor,
} from './executor.js';
import { fixedRate } from './fixed-width.js';
import { constantArrivalsBy } from './schedule.js';

/** constant-arrival-rate (k6 lib/executor/constant_arrival_rate.go): `rate` iterations per timeUnit for `duration`. */
export const constantArrivalRate: Executor = {
  name: 'constant-arrival-rate',
  validate: (s, raw) =>
    errorsOf(
      raw.rate === undefined
        ? "the iteration rate isn't specified"
        : s.rate > 0
          ? undefined
          : 'the iteration rate must be more than 0',
      timeUnitError(s),
      minDurationError('duration', s.durationMs, raw.duration !== undefined),
      ...vuPoolErrors(s, raw),
    ),
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
