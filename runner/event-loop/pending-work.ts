// Asynchronous work a VU's iteration waits for before it ends, as k6's event loop waits for every
// callback a module registered (k6/net/grpc's streams and asyncInvoke). Each piece holds the
// iteration until it releases; a callback that throws ends the iteration with its error; an
// interrupt stops what is still held. Kept generic: any module with events can hold an iteration.

import { SettleableWork } from './settle.js';

export interface Hold {
  /** The work is done: the iteration no longer waits for it. */
  release(): void;
  /** Runs one of its callbacks: a throw ends the iteration with that error (and stops the rest). */
  run(callback: () => void): void;
  /** Ends the iteration with `error`, as a callback that threw it would (and stops the rest). */
  fail(error: unknown): void;
}

export class PendingWork extends SettleableWork {
  private readonly held = new Set<{ stop: (interrupted: boolean) => void }>();

  /**
   * `stop` is called if the iteration ends while the work is still held: interrupted from outside
   * (the end of the test), or by an error.
   */
  hold(stop: (interrupted: boolean) => void): Hold {
    const entry = { stop };
    this.held.add(entry);
    const fail = (error: unknown) => {
      if (!this.held.has(entry)) return;
      this.failure ??= { error };
      this.stopAll();
      this.changed?.();
    };
    return {
      release: () => {
        if (this.held.delete(entry)) this.changed?.();
      },
      run: (callback) => {
        if (!this.held.has(entry)) return;
        try {
          callback();
        } catch (error) {
          fail(error);
        }
      },
      fail,
    };
  }

  /** Stops everything still held (the iteration is over). */
  stopAll(interrupted = false): void {
    const entries = [...this.held];
    this.held.clear();
    for (const entry of entries) entry.stop(interrupted);
  }

  get idle(): boolean {
    return this.held.size === 0;
  }
}
