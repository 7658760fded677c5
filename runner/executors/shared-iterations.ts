import { formatDuration } from '@loadlab/k6-format/duration';
import { timeColumnFixed } from './columns.js';
import { errorsOf, steadySteps, type Executor } from './executor.js';
import { fixedInt } from './fixed-width.js';
import { maxDurationError, vusError } from './iterations.js';

/** shared-iterations (k6 lib/executor/shared_iterations.go): `iterations` in total, taken by `vus` VUs as they free up. */
export const sharedIterations: Executor = {
  name: 'shared-iterations',
  validate: (s) =>
    errorsOf(
      vusError(s),
      s.iterations < s.vus
        ? `the number of iterations (${s.iterations}) can't be less than the number of VUs (${s.vus})`
        : undefined,
      maxDurationError(s),
    ),
  durationMs: (s) => s.maxDurationMs,
  maxVus: (s) => s.vus,
  executionSteps: (s) => steadySteps(s, s.maxDurationMs, s.vus),
  describe: (s) => ({
    head: `${s.iterations} iterations shared among ${s.vus} VUs`,
    extras: [`maxDuration: ${formatDuration(s.maxDurationMs)}`],
  }),
  totalIterations: (s) => s.iterations,
  progress(snap, now) {
    const c = snap.config;
    const spent = now - snap.startedAt;
    const iters = `${fixedInt(snap.iterationsDone, c.iterations)}/${c.iterations} shared iters`;
    return {
      progress: Math.min(1, snap.iterationsDone / c.iterations),
      right: [`${c.vus} VUs`, timeColumnFixed(spent, c.maxDurationMs), iters],
    };
  },
  async run(driver, end) {
    driver.shareIterations(driver.config.iterations);
    await driver.regularThenGraceful(driver.loopEvery(end, { shared: true }), end);
  },
};
