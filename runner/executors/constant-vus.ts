import { formatDuration } from '@loadlab/k6-format/duration';
import { errorsOf, minDurationError, steadySteps, timeColumn, type Executor } from './executor.js';

/** constant-vus (k6 lib/executor/constant_vus.go): `vus` VUs loop for `duration`. */
export const constantVus: Executor = {
  name: 'constant-vus',
  validate: (s, raw) =>
    errorsOf(
      s.vus > 0 ? undefined : 'the number of VUs must be more than 0',
      minDurationError('duration', s.durationMs, raw.duration !== undefined),
    ),
  durationMs: (s) => s.durationMs,
  maxVus: (s) => s.vus,
  executionSteps: (s) => steadySteps(s, s.durationMs, s.vus),
  describe: (s) => ({ head: `${s.vus} looping VUs for ${formatDuration(s.durationMs)}`, extras: [] }),
  totalIterations: () => undefined,
  progress(snap, now) {
    const c = snap.config;
    const spent = now - snap.startedAt;
    return {
      progress: Math.min(1, spent / c.durationMs),
      right: [`${c.vus} VUs`, timeColumn(spent, c.durationMs)],
    };
  },
  async run(driver, end) {
    await driver.regularThenGraceful(driver.loopEvery(end), end);
  },
};
