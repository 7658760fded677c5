import { formatDuration } from '@loadlab/k6-format/duration';
import { errorsOf, steadySteps, timeColumn, type Executor } from './executor.js';
import { fixedInt } from './fixed-width.js';
import { maxDurationError, vusError } from './iterations.js';

/** per-vu-iterations (k6 lib/executor/per_vu_iterations.go): each of `vus` VUs runs `iterations`. */
export const perVuIterations: Executor = {
  name: 'per-vu-iterations',
  validate: (s) =>
    errorsOf(
      vusError(s),
      s.iterations > 0 ? undefined : 'the number of iterations must be more than 0',
      maxDurationError(s),
    ),
  durationMs: (s) => s.maxDurationMs,
  maxVus: (s) => s.vus,
  executionSteps: (s) => steadySteps(s, s.maxDurationMs, s.vus),
  describe: (s) => ({
    head: `${s.iterations} iterations for each of ${s.vus} VUs`,
    extras: [`maxDuration: ${formatDuration(s.maxDurationMs)}`],
  }),
  totalIterations: (s) => s.iterations * s.vus,
  progress(snap, now) {
    const c = snap.config;
    const total = c.vus * c.iterations;
    const iters = `${fixedInt(snap.iterationsDone, total)}/${total} iters, ${c.iterations} per VU`;
    return {
      progress: Math.min(1, snap.iterationsDone / total),
      right: [`${c.vus} VUs`, timeColumn(now - snap.startedAt, c.maxDurationMs), iters],
    };
  },
  async run(driver, end) {
    const c = driver.config;
    await driver.regularThenGraceful(driver.loopEvery(end, { maxIterations: c.iterations }), end);
  },
};
