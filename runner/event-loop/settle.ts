// Waiting for a VU's asynchronous work to finish before its iteration ends (timers, held work such
// as gRPC streams): done when the source is idle, interrupted when the VU is told to stop, failed
// with the first error one of its callbacks threw.

/** How often an iteration waiting for its asynchronous work looks at the interrupt flag. */
const INTERRUPT_POLL_MS = 20;

export interface Settleable {
  /** Nothing is left to wait for. */
  readonly idle: boolean;
  /** Something is left to wait for, or a callback threw and the iteration has yet to hear of it. */
  readonly busy: boolean;
  /** The first error a callback threw, taken once. */
  takeFailure(): { error: unknown } | undefined;
  /** `onChange` runs after every change from now on (undefined: no longer). */
  watch(onChange: (() => void) | undefined): void;
  /** Stops whatever is pending (the iteration ends without it; `interrupted`: stopped from outside). */
  stopAll(interrupted?: boolean): void;
}

export function settle(source: Settleable, interrupted: () => boolean): Promise<'done' | 'interrupted'> {
  return new Promise((resolve, reject) => {
    const poll = setInterval(() => {
      if (!interrupted()) return;
      source.stopAll(true);
      finish();
      resolve('interrupted');
    }, INTERRUPT_POLL_MS);
    const finish = () => {
      clearInterval(poll);
      source.watch(undefined);
    };
    const onChange = () => {
      const failure = source.takeFailure();
      if (failure) {
        finish();
        reject(failure.error);
      } else if (source.idle) {
        finish();
        resolve('done');
      }
    };
    source.watch(onChange);
    onChange();
  });
}

/** The bookkeeping every Settleable shares: the first failure and the change callback. */
export abstract class SettleableWork implements Settleable {
  protected failure: { error: unknown } | undefined;
  protected changed: (() => void) | undefined;
  abstract readonly idle: boolean;
  abstract stopAll(interrupted?: boolean): void;

  get busy(): boolean {
    return !this.idle || this.failure !== undefined;
  }

  takeFailure(): { error: unknown } | undefined {
    const failure = this.failure;
    this.failure = undefined;
    return failure;
  }

  watch(onChange: (() => void) | undefined): void {
    this.changed = onChange;
  }

  /**
   * Resolves 'done' when nothing is left, 'interrupted' (all stopped) once `interrupted()` says so;
   * rejects with the first error a callback threw.
   */
  settle(interrupted: () => boolean): Promise<'done' | 'interrupted'> {
    return settle(this, interrupted);
  }
}

/**
 * Several sources waited for as one (a VU's timers and its held work): idle when all are, failed
 * as soon as any one fails, stopped together. Waiting on them one after the other would miss a
 * failure of the one not being watched (a stream's listener throwing while an interval runs).
 */
export function allOf(...sources: Settleable[]): Settleable & {
  settle(interrupted: () => boolean): Promise<'done' | 'interrupted'>;
} {
  const all: Settleable = {
    get idle() {
      return sources.every((s) => s.idle);
    },
    get busy() {
      return sources.some((s) => s.busy);
    },
    takeFailure() {
      for (const s of sources) {
        const failure = s.takeFailure();
        if (failure) return failure;
      }
      return undefined;
    },
    watch(onChange) {
      for (const s of sources) s.watch(onChange);
    },
    stopAll(interrupted) {
      for (const s of sources) s.stopAll(interrupted);
    },
  };
  return Object.assign(all, { settle: (interrupted: () => boolean) => settle(all, interrupted) });
}
