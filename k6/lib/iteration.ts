// The end of every iteration of every scenario and journey: count it, then pause as a user would.
//
// completed_iterations is the gate that cannot pass on nothing. k6 passes a threshold whose metric has
// no samples (an empty Trend is 0, an empty Rate has no value), so a run where every iteration throws
// before its first request (the browser cannot start, a bug in the script) would pass every threshold.
// A Counter with no samples is count=0, and `count>0` (GATE_THRESHOLDS, added to every scenario's
// thresholds) fails it, on real k6 and on the Node runner alike.
import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { pauseSeconds, thinkTimeFactor, type Pause } from './think-time.js';

const completedIterations = new Counter('completed_iterations');
const factor = thinkTimeFactor(__ENV);

/** Sleeps one pause of THINK_TIME (think-time.ts), scaled by LT_THINK_TIME; 0 skips the sleep. */
export function think(pause: Pause): void {
  if (factor === 0) return;
  sleep(pauseSeconds(pause, factor));
}

/** Counts the iteration as completed, then pauses (omit the pause when the last step already did). */
export function endIteration(pause?: Pause): void {
  completedIterations.add(1);
  if (pause) think(pause);
}
