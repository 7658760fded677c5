import { formatDuration } from '@loadlab/k6-format/duration';
import { stagesDurationMs, type Executor, type ScenarioDriver } from './executor.js';
import { fixedDuration, fixedInt } from './fixed-width.js';
import { rampingVuChanges } from './schedule.js';

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
  run: rampVus,
};

/**
 * VUs 1..target loop, the target moving at k6's times (schedule.ts); a VU above a lowered target
 * starts no new iteration, and one still in its iteration gracefulRampDown later is interrupted.
 */
async function rampVus(driver: ScenarioDriver, end: number): Promise<void> {
  const c = driver.config;
  let target = 0;
  const setTarget = (count: number): void => {
    const previous = target;
    target = count;
    driver.vus.slice(count, previous).forEach((p, i) => {
      driver.stopLoop(p);
      if (!p.busy) return;
      const serial = driver.loopSerial(p);
      setTimeout(() => {
        if (p.busy && driver.loopSerial(p) === serial && count + i >= target) driver.interrupt(p);
      }, c.gracefulRampDownMs).unref();
    });
    driver.notify();
  };
  const timers = rampingVuChanges(c.startVUs, c.stages).map((change) =>
    setTimeout(() => setTarget(change.count), Math.max(0, driver.startedAt + change.atMs - Date.now())),
  );
  const loops = Promise.all(
    driver.vus.map(async (p, index) => {
      const u = index + 1;
      while (!driver.stopping && Date.now() < end) {
        if (u > target) {
          await driver.changed();
          continue;
        }
        // Returns when setTarget() lowers the target below u (GO cleared) or at the end.
        await driver.loop(p, end);
      }
    }),
  );
  await driver.untilEndOrStop(end);
  timers.forEach(clearTimeout);
  await driver.gracefulEnd(loops);
}
