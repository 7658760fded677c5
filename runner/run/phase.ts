// A run's one-VU phases (setup, teardown, handleSummary) bounded as k6 bounds them: each has its
// timeout (setupTimeout, teardownTimeout, 2 min for handleSummary), and setup also ends at the first
// signal. A phase that ends early leaves its VU behind: the caller abandons it (k6 runs each
// phase in a VU of its own, so nothing after needs that one).
import type { Vu } from '../host/vu.js';
import { EXIT } from './exit-codes.js';
import type { RunLog } from './run-log.js';
import type { VuFactory } from './vu-factory.js';

/** Why a run ended before its last phase, with k6's exit code and the line k6 logs at the end. */
export interface RunEnding {
  code: number;
  log(log: RunLog): void;
}

export type BoundedPhase<T> = { ended: false; value: T } | { ended: 'timeout' | 'stopped' };

/**
 * `work`'s value, or how it was cut short: its timeout passed first, or `stop` (a signal) settled
 * first. A rejection of `work` is thrown, unless the phase was already cut short.
 */
export async function boundPhase<T>(
  work: Promise<T>,
  timeoutMs: number,
  stop?: Promise<unknown>,
): Promise<BoundedPhase<T>> {
  let timer: NodeJS.Timeout | undefined;
  // No timer for an unbounded phase (Node would fire one past 2^31 - 1 ms at once).
  const timeout = new Promise<BoundedPhase<T>>((resolve) => {
    if (Number.isFinite(timeoutMs)) timer = setTimeout(() => resolve({ ended: 'timeout' }), timeoutMs);
  });
  const stopped = stop?.then((): BoundedPhase<T> => ({ ended: 'stopped' }));
  // The work may still reject after it was cut short (its VU closed): that is no one's error.
  work.catch(() => {});
  try {
    return await Promise.race([
      work.then((value): BoundedPhase<T> => ({ ended: false, value })),
      timeout,
      ...(stopped ? [stopped] : []),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** k6's timeoutError: `setup() execution timed out after 2 seconds`, exit 100 or 101. */
export function phaseTimedOut(place: 'setup' | 'teardown', timeoutMs: number): RunEnding {
  return {
    code: place === 'setup' ? EXIT.setupTimeout : EXIT.teardownTimeout,
    log: (log) =>
      log('error', `${place}() execution timed out after ${goSeconds(timeoutMs)} seconds`, {
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

/** The first signal's error, which k6 logs when the run has ended: exit 105. */
export function abortedBySignal(signal: string): RunEnding {
  return {
    code: EXIT.externalAbort,
    log: (log) => log('error', `test run was aborted because k6 received a '${signal}' signal`),
  };
}

/**
 * VU 0, which runs setup, teardown and handleSummary one after the other: after a phase cut short it
 * is abandoned (interrupted, its thread ended, whatever its JavaScript was doing) and the next phase
 * gets a new VU 0, initialised as k6 initialises the VU of each of those phases.
 */
export class PhaseVu {
  private abandoned = false;
  private fresh: Promise<Vu> | undefined;

  constructor(
    private readonly vu0: Vu,
    private readonly vus: VuFactory,
    private readonly runTags: Record<string, string>,
  ) {}

  abandon(): void {
    if (this.abandoned) return;
    this.abandoned = true;
    this.vu0.interrupt();
    void this.vu0.close();
  }

  /** The VU the next phase runs on. */
  async get(): Promise<Vu> {
    if (!this.abandoned) return this.vu0;
    this.fresh ??= (async () => {
      const vu = this.vus.make(0, { ...this.runTags });
      await vu.init();
      return vu;
    })();
    return this.fresh;
  }
}
