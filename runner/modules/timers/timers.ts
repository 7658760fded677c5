// `k6/timers` and the global setTimeout/setInterval/clear* k6 gives scripts. As in k6, an iteration
// is not over while one of its timers is pending: the VU waits for them (sleep() blocks them, as it
// blocks k6's event loop); a callback that throws ends the iteration with its error, and the timers
// still pending are stopped with k6's warning, as on an interrupt.
//
// The queue keeps its own due times and arms one Node timer for the earliest: Node runs a 0 ms
// timeout no sooner than a 1 ms one, where k6 runs it first, and due timers run earliest first.

import { SettleableWork } from '../../event-loop/settle.js';

type TimerKind = 'setTimeout' | 'setInterval';

export interface VuTimers {
  setTimeout(callback: unknown, delay?: unknown, ...args: unknown[]): number;
  clearTimeout(id: unknown): void;
  setInterval(callback: unknown, delay?: unknown, ...args: unknown[]): number;
  clearInterval(id: unknown): void;
}

interface Timer {
  id: number;
  kind: TimerKind;
  /** performance.now() at which it runs next. */
  due: number;
  delay: number;
  run: () => void;
}

export class TimerQueue extends SettleableWork {
  /** Ids are per VU and never reused, as k6's. */
  private nextId = 1;
  private readonly live = new Map<number, Timer>();
  private armed: { cancel: () => void } | undefined;
  readonly api: VuTimers;

  constructor(private readonly warn: (message: string) => void) {
    super();
    const start =
      (kind: TimerKind) =>
      (callback: unknown, delay?: unknown, ...args: unknown[]) =>
        this.start(kind, callback, delay, args);
    const clear = (id: unknown) => this.clear(Number(id));
    this.api = {
      setTimeout: start('setTimeout'),
      clearTimeout: clear,
      setInterval: start('setInterval'),
      clearInterval: clear,
    };
  }

  private start(kind: TimerKind, callback: unknown, delay: unknown, args: unknown[]): number {
    if (typeof callback !== 'function') throw new TypeError(`${kind}'s callback is not a function`);
    const id = this.nextId++;
    const ms = Math.max(0, Number(delay) || 0);
    const run = () => (callback as (...a: unknown[]) => unknown)(...args);
    this.live.set(id, { id, kind, due: performance.now() + ms, delay: ms, run });
    this.arm();
    return id;
  }

  private clear(id: number): void {
    if (!this.live.delete(id)) return;
    this.arm();
    this.changed?.();
  }

  private earliest(): Timer | undefined {
    let first: Timer | undefined;
    for (const timer of this.live.values()) {
      if (!first || timer.due < first.due || (timer.due === first.due && timer.id < first.id)) first = timer;
    }
    return first;
  }

  private arm(): void {
    this.armed?.cancel();
    this.armed = undefined;
    const next = this.earliest();
    if (!next) return;
    const wait = next.due - performance.now();
    if (wait <= 0) {
      const handle = setImmediate(() => this.fire());
      this.armed = { cancel: () => clearImmediate(handle) };
    } else {
      const handle = setTimeout(() => this.fire(), Math.ceil(wait));
      this.armed = { cancel: () => clearTimeout(handle) };
    }
  }

  /** Runs every timer due by now, earliest first; an interval is due again its delay after it ran. */
  private fire(): void {
    this.armed = undefined;
    const now = performance.now();
    for (let timer = this.earliest(); timer && timer.due <= now; timer = this.earliest()) {
      if (timer.kind === 'setTimeout') this.live.delete(timer.id);
      else timer.due = Math.max(performance.now(), now) + Math.max(timer.delay, 1);
      try {
        timer.run();
      } catch (error) {
        this.failure ??= { error };
        this.stopAll();
        break;
      }
    }
    this.arm();
    this.changed?.();
  }

  /** Stops every pending timer with k6's warning (an interrupted or failed iteration). */
  stopAll(): void {
    for (const { id, kind } of this.live.values()) {
      this.warn(`${kind} ${id} was stopped because the VU iteration was interrupted`);
    }
    this.live.clear();
    this.arm();
  }

  get idle(): boolean {
    return this.live.size === 0;
  }
}
