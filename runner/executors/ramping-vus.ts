import { formatDuration } from '@loadlab/k6-format/duration';
import {
  errorsOf,
  stagesDurationMs,
  stagesErrors,
  toNs,
  type ExecutionStep,
  type Executor,
  type ScenarioConfig,
  type ScenarioDriver,
} from './executor.js';
import { fixedDuration, fixedInt } from './fixed-width.js';
import { rampingVuChanges } from './schedule.js';

const maxVus = (s: { startVUs: number; stages: { target: number }[] }) =>
  Math.max(s.startVUs, ...s.stages.map((st) => st.target));

/** ramping-vus (k6 lib/executor/ramping_vus.go): looping VUs from startVUs through each stage's target. */
export const rampingVus: Executor = {
  name: 'ramping-vus',
  validate: (s, raw) => [
    ...errorsOf(
      s.startVUs < 0 ? "the number of start VUs can't be negative" : undefined,
      maxVus(s) > 0
        ? undefined
        : "either startVUs or one of the stages' target values must be greater than 0",
    ),
    ...stagesErrors(raw.stages),
  ],
  durationMs: stagesDurationMs,
  maxVus,
  executionSteps,
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

/**
 * k6's GetExecutionRequirements for ramping-vus: the ramp's VU counts, a step down held for
 * gracefulRampDown (the VUs above it may still finish their iteration), and 0 VUs at the end of
 * the stages and gracefulStop unless the ramp got there first.
 */
function executionSteps(s: ScenarioConfig): ExecutionStep[] {
  const ramp = rampingVuChanges(s.startVUs, s.stages).map((change): ExecutionStep => ({
    offsetNs: change.atNs,
    plannedVus: change.count,
    maxUnplannedVus: 0,
  }));
  const endNs = s.stages.reduce((sum, st) => sum + toNs(st.durationMs), 0) + toNs(s.gracefulStopMs);
  const steps = s.gracefulRampDownMs > 0 ? holdForRampDown(ramp, toNs(s.gracefulRampDownMs), endNs) : ramp;
  if (steps[steps.length - 1]!.plannedVus !== 0)
    steps.push({ offsetNs: endNs, plannedVus: 0, maxUnplannedVus: 0 });
  return steps;
}

/**
 * The ramp with each step down delayed by `graceNs`, unless the ramp climbs back to the held count
 * within that time (then nothing is released in between). No step at or after `endNs`: the
 * scenario's end takes every VU back. k6 reserveVUsForGracefulRampDowns, which also skips ahead
 * over a slope already looked at.
 */
function holdForRampDown(ramp: ExecutionStep[], graceNs: number, endNs: number): ExecutionStep[] {
  const held: ExecutionStep[] = [];
  let holding = 0;
  let slopeSeen = 0;
  for (let i = 0; i < ramp.length; i++) {
    const step = ramp[i]!;
    if (i === 0 || step.plannedVus > holding) {
      held.push(step);
      holding = step.plannedVus;
      continue;
    }
    if (step.plannedVus === holding) continue;
    const releaseAt = step.offsetNs + graceNs;
    let climbsBack = false;
    let goingDown = true;
    for (let j = Math.max(slopeSeen, i + 1); j < ramp.length; j++) {
      const ahead = ramp[j]!;
      if (ahead.offsetNs > releaseAt) break;
      if (ahead.plannedVus >= holding) {
        climbsBack = true;
        i = j - 1;
        break;
      }
      if (goingDown) {
        if (ramp[j - 1]!.plannedVus > ahead.plannedVus) slopeSeen = j;
        else goingDown = false;
      }
    }
    if (climbsBack) continue;
    if (releaseAt >= endNs) break;
    held.push({ offsetNs: releaseAt, plannedVus: step.plannedVus, maxUnplannedVus: 0 });
    holding = step.plannedVus;
  }
  return held;
}
