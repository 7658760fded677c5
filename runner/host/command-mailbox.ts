// A VU isolate's commands on their way to its serve loop (vu/isolate/entry.ts): the main thread puts
// them in, the loop takes them one at a time, waiting (its isolate's thread blocked in
// applySyncPromise) while there is none. Closing answers a waiting take with null, which ends the loop:
// the isolate then returns to idle before it is disposed. Disposed while it waits, isolated-vm
// destroys it on its own thread once the wait unwinds, and a process that exits meanwhile dies of
// SIGSEGV (isolate-exit.ts): with a loop per VU, that was every VU at every run's end.

export class CommandMailbox<T> {
  private readonly queued: T[] = [];
  private waiting: ((item: T | null) => void) | undefined;
  private closed = false;

  /** Hands `item` to the waiting take, or queues it; false once closed (the item is dropped). */
  put(item: T): boolean {
    if (this.closed) return false;
    const waiting = this.waiting;
    this.waiting = undefined;
    if (waiting) waiting(item);
    else this.queued.push(item);
    return true;
  }

  /** The next item, once there is one; null once closed (what was queued is still taken first). */
  take(): T | null | Promise<T | null> {
    if (this.queued.length > 0) return this.queued.shift() as T;
    if (this.closed) return null;
    if (this.waiting) throw new Error('CommandMailbox: one take at a time');
    return new Promise((resolve) => (this.waiting = resolve));
  }

  /** Whether a take is waiting for an item now. */
  get isWaiting(): boolean {
    return this.waiting !== undefined;
  }

  /** No more items: a waiting take gets null now, later takes once the queue is empty. */
  close(): void {
    this.closed = true;
    const waiting = this.waiting;
    this.waiting = undefined;
    waiting?.(null);
  }
}
