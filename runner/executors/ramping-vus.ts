import { formatDuration } from '@loadlab/k6-format/duration';
import { stagesDurationMs, type Executor } from './executor.js';
import { fixedDuration, fixedInt } from './fixed-width.js';

const maxVus = (s: { startVUs: number; stages: { target: number }[] }) =>
  Math.max(s.startVUs, ...s.stages.map((st) => st.target));

/** ramping-vus (k6 lib/executor/ramping_vus.go): looping VUs from startVUs through each stage's target. */
export const rampingVus: Executor = {
  name: 'ramping-vus',
  validate: (s) => (s.stages.length === 0 ? 'at least one stage has to be specified' : undefined),
  durationMs: stagesDurationMs,
  maxVus,
  plannedVus: maxVus,
  describe: (s) => ({
    head: `Up to ${maxVus(s)} looping VUs for ${formatDuration(stagesDurationMs(s))} over ${s.stages.length} stages`,
    extras: [`gracefulRampDown: ${formatDuration(s.gracefulRampDownMs)}`],
  }),
  totalIterations: () => undefined,
  progress(snap, now) {
    const c = snap.config;
    const spent = now - snap.startedAt;
    const duration = stagesDurationMs(c);
    const max = maxVus(c);
    const vus = `${fixedInt(snap.runningVus, max)}/${fixedInt(max, max)} VUs`;
    const time =
      spent > duration
        ? formatDuration(duration)
        : `${fixedDuration(spent, duration)}/${fixedDuration(duration, duration)}`;
    return { progress: Math.min(1, spent / duration), right: [vus, time] };
  },
  run: (driver, end) => driver.rampVus(end),
};
