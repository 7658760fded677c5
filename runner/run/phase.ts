// A run's one-VU phases (setup, teardown, handleSummary) bounded as k6 bounds them: each has its
// timeout (setupTimeout, teardownTimeout, 2 min for handleSummary), and setup also ends at the first
// signal. A phase that ends early leaves its VU behind: the caller abandons it (k6 runs each
// phase in a VU of its own, so nothing after needs that one).
import type { Vu } from '../host/hosted-vu.js';
import { EXIT } from './exit-codes.js';
import type { RunLog } from './run-log.js';
import type { VuFactory } from './vu-factory.js';

/** Why a run ended before its last phase, with k6's exit code and the line k6 logs at the end. */
export interface RunEnding {
  code: number;
  log(log: RunLog): void;
}

// The bound itself sits below this module: a scenario's gracefulStop uses it too.
export { boundPhase, type BoundedPhase } from './bound-phase.js';

/** k6's timeoutError's text: `setup() execution timed out after 2 seconds`. */
export function timedOutText(place: 'setup' | 'teardown' | 'handleSummary', timeoutMs: number): string {
  return `${place}() execution timed out after ${goSeconds(timeoutMs)} seconds`;
}

/** k6's timeoutError for setup and teardown: its line with a hint, exit 100 or 101. */
export function phaseTimedOut(place: 'setup' | 'teardown', timeoutMs: number): RunEnding {
  return {
    code: place === 'setup' ? EXIT.setupTimeout : EXIT.teardownTimeout,
    log: (log) =>
      log('error', timedOutText(place, timeoutMs), {
        hint: `You can increase the time limit via the ${place}Timeout option`,
      }),
  };
}

/** Seconds as Go's `%.f` prints them: rounded to the nearest, a half to the even one. */
function goSeconds(ms: number): string {
  const s = ms / 1000;
  const rounded = Math.abs(s % 1) === 0.5 ? 2 * Math.round(s / 2) : Math.round(s);
  return String(rounded);
}

/**
 * Setup or teardown left a promise rejected and unhandled: k6 logs k6's "Uncaught (in promise)" line
 * when the run has ended, with no hint, and exits as for an error without a code of its own.
 */
export function uncaughtInPromise(error: Error): RunEnding {
  return { code: EXIT.plainError, log: (log) => log('error', error.message) };
}

/** The first signal's error, which k6 logs when the run has ended: exit 105. */
export function abortedBySignal(signal: string): RunEnding {
  return {
    code: EXIT.externalAbort,
    log: (log) => log('error', `test run was aborted because k6 received a '${signal}' signal`),
  };
}

/**
 * VU 0, which reads the options, then runs setup, teardown and handleSummary. As in k6 v1.3, each of
 * those phases runs on a VU 0 of its own (fresh()): its init code runs again, and what one phase
 * left in the script's globals the next does not see. A phase cut short abandons its VU
 * (interrupted, its thread ended, whatever its JavaScript was doing).
 */
export class PhaseVu {
  /** The VU the last phase ran on (at first the one that read the options); none once abandoned. */
  private vu: Vu | undefined;

  constructor(
    vu0: Vu,
    private readonly vus: VuFactory,
    private readonly runTags: Record<string, string>,
  ) {
    this.vu = vu0;
  }

  /** Ends the current VU, whichever phase made it (teardown's, then handleSummary's may each be cut short). */
  abandon(): void {
    const vu = this.vu;
    if (!vu) return;
    this.vu = undefined;
    vu.interrupt();
    void vu.close();
  }

  /** A new VU 0 for the next phase, initialised; the one before it ends. */
  async fresh(): Promise<Vu> {
    if (this.vu) void this.vu.close();
    const vu = (this.vu = this.vus.make(0, { ...this.runTags }));
    await vu.init();
    return vu;
  }
}
