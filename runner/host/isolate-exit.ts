// When the process may exit while VU isolates exist. isolated-vm runs each isolate's tasks on a
// thread of its own, and an isolate disposed while it runs is destroyed on that thread once its task
// unwinds. Node's process.exit() shuts the V8 platform down at once; a thread still destroying an
// isolate then dies in isolated-vm's PlatformDelegate::UnregisterIsolate and takes the process with
// it (SIGSEGV instead of k6's exit code). Nothing tells this thread that another one let go of an
// isolate, so the exit waits for what it can see: every call into an isolate settled, then a short
// quiet time with no isolate work, in which such a thread finishes.

/** An isolate's owner, as the exit sees it: stops the isolate's code without a report of its own. */
export interface IsolateOwner {
  stop(): void;
}

/** How long a thread may still hold an isolate after its last answer reached this thread. */
const THREAD_LEAVE_MS = 100;

/** The longest an exit waits for isolates: a second Ctrl-C must still end the process promptly. */
const SETTLE_LIMIT_MS = 2000;

/** Each owner's calls into its isolate that have not settled. */
const running = new Map<IsolateOwner, Set<Promise<unknown>>>();
let lastWorkAt: number | undefined;

/** Something ran, or is about to run, on an isolate's thread. */
export function noteIsolateWork(): void {
  lastWorkAt = performance.now();
}

/** A call into `owner`'s isolate: the exit waits for it to settle (returned as given). */
export function trackIsolateCall<T>(owner: IsolateOwner, call: Promise<T>): Promise<T> {
  let calls = running.get(owner);
  if (!calls) running.set(owner, (calls = new Set()));
  calls.add(call);
  noteIsolateWork();
  const settled = () => {
    calls.delete(call);
    if (calls.size === 0) running.delete(owner);
    noteIsolateWork();
  };
  call.then(settled, settled);
  return call;
}

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

/**
 * Stops every isolate still running a call (a VU asleep or in a loop) and waits until their threads
 * are done with them, at most `limitMs`: to be awaited before process.exit(). Idle isolates are left
 * alone; the exit does not touch them.
 */
export async function settleIsolates(limitMs = SETTLE_LIMIT_MS): Promise<void> {
  if (lastWorkAt === undefined) return;
  const deadline = performance.now() + limitMs;
  const calls = [...running.values()].flatMap((set) => [...set]);
  for (const owner of [...running.keys()]) owner.stop();
  await Promise.race([Promise.allSettled(calls), delay(deadline - performance.now())]);
  const quietAt = Math.min(lastWorkAt + THREAD_LEAVE_MS, deadline);
  await delay(quietAt - performance.now());
}
