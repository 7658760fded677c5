// The first promise an iteration left rejected with no handler. k6 ends the iteration when its event
// loop reports one: "Uncaught (in promise) …" is the iteration's error, its timers are stopped as
// for a callback that threw, and later rejections of the same iteration are not reported.
import { SettleableWork } from './settle.js';

/** An unhandled rejection's reason, as the error of the iteration that left it. */
export class UnhandledRejection {
  constructor(readonly reason: unknown) {}
}

export class UnhandledRejections extends SettleableWork {
  /** Nothing to wait for: a rejection is a failure, reported as soon as it comes. */
  readonly idle = true;

  report(reason: unknown): void {
    if (this.failure) return;
    this.failure = { error: new UnhandledRejection(reason) };
    this.changed?.();
  }

  /** Forgets a rejection the last iteration left after it ended (it had already failed otherwise). */
  clear(): void {
    this.failure = undefined;
  }

  stopAll(): void {}
}
