// When the process may exit while VU isolates exist. isolated-vm runs each isolate's tasks on a
// thread of its own, and an isolate disposed while it runs is destroyed on that thread once its task
// unwinds. Node's process.exit() shuts the V8 platform down at once; a thread still destroying an
// isolate then dies in isolated-vm's PlatformDelegate::UnregisterIsolate and takes the process with
// it (SIGSEGV instead of k6's exit code). Nothing tells this thread that another one let go of an
// isolate, so the exit waits for what it can see: every call into an isolate settled, then a short
// quiet time with no isolate work, in which such a thread finishes. Node's own exit, when nothing is
// left to run, does better: isolated-vm's environment cleanup hook disposes every isolate still made
// and waits until each is destroyed, so exitWith() lets the process end so when it can.
// That end has a hazard of its own: when Node then tears the main isolate down, V8 finishes a
// garbage collection still marking, after isolated-vm's hook released its environment; each handle
// of isolated-vm's found dead then asks for that environment, and the process aborts
// (IsolateEnvironment::GetCurrent()'s assertion, 5 in 200 quick refusals on Node 24). A full
// collection as the process exits finishes any marking while the environment is there.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** An isolate's owner, as the exit sees it: stops the isolate's code without a report of its own. */
export interface IsolateOwner {
  stop(): void;
}

/** How long a thread may still hold an isolate after its last answer reached this thread. */
const THREAD_LEAVE_MS = 100;

/** The longest an exit waits for isolates: a second Ctrl-C must still end the process promptly. */
const SETTLE_LIMIT_MS = 2000;

/**
 * Whether closing VUs leave their idle isolate and their sockets to the process's exit
 * (leaveVusToExit()), and how many such things were left.
 */
let leavingToExit = false;
let leftToTheExit = 0;

/**
 * For the command line, whose process ends with the run: from now on a closing VU leaves its idle
 * isolate and its sockets for the exit to end, instead of ending each in turn (disposing 1,000 idle
 * isolates and destroying their HTTP agents took ~0.5 s of such a run's end). A run inside a longer
 * process (a test, a library user) does not call this and keeps ending them.
 */
export function leaveVusToExit(): void {
  leavingToExit = true;
}

/**
 * Whether a closing VU leaves one of its resources to the exit. Counted: exitWith() then ends the
 * process itself, since Node's own end would dispose each isolate left, the same cost again.
 */
export function leftToExit(): boolean {
  if (leavingToExit) leftToTheExit += 1;
  return leavingToExit;
}

/** Each owner's calls into its isolate that have not settled. */
const running = new Map<IsolateOwner, Set<Promise<unknown>>>();
let lastWorkAt: number | undefined;

let lastDisposeAt: number | undefined;

/** Something ran, or is about to run, on an isolate's thread. */
export function noteIsolateWork(): void {
  lastWorkAt = performance.now();
}

/** An isolate was disposed or lost: its thread may go on destroying it for a while (the exit's hazard). */
export function noteIsolateDisposed(): void {
  lastDisposeAt = performance.now();
  noteIsolateWork();
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
 * alone; the exit does not touch them. The quiet time is for a thread still destroying an isolate:
 * with no call stopped and no isolate disposed in the last THREAD_LEAVE_MS (idle isolates left to
 * the exit, the command line's end), there is none to wait for.
 */
export async function settleIsolates(limitMs = SETTLE_LIMIT_MS): Promise<void> {
  if (lastWorkAt === undefined) return;
  const deadline = performance.now() + limitMs;
  const calls = [...running.values()].flatMap((set) => [...set]);
  const disposedLately = lastDisposeAt !== undefined && performance.now() - lastDisposeAt < THREAD_LEAVE_MS;
  if (calls.length === 0 && !disposedLately) return;
  if (process.env.LOADLAB_DEBUG_EXIT && disposedLately)
    process.stderr.write(
      `loadlab: the exit waited for an isolate disposed in its last ${THREAD_LEAVE_MS} ms\n`,
    );
  for (const owner of [...running.keys()]) owner.stop();
  await Promise.race([Promise.allSettled(calls), delay(deadline - performance.now())]);
  const quietAt = Math.min(lastWorkAt + THREAD_LEAVE_MS, deadline);
  await delay(quietAt - performance.now());
}

/**
 * Ends the process with `code` once stdout is written. When no call into an isolate is left, the
 * process ends as Node ends it with nothing left to run, through isolated-vm's cleanup hook (no wait
 * here); a handle something left open must not hold it, so after the quiet time it exits as
 * exitAfterSettling() does. A call still running (a VU asleep), or anything VUs left to the exit
 * (leaveVusToExit()), takes exitAfterSettling() at once.
 * LOADLAB_DEBUG_EXIT=1 prints a line when the exit does not happen by itself, and why, and when it
 * waits for an isolate disposed just before it.
 */
export function exitWith(code: number): void {
  process.exitCode = code;
  const debug = Boolean(process.env.LOADLAB_DEBUG_EXIT);
  if (running.size > 0) {
    if (debug)
      process.stderr.write(`loadlab: the exit waited for ${running.size} VU isolates still running\n`);
    void exitAfterSettling(code);
    return;
  }
  if (leftToTheExit > 0) {
    if (debug) {
      process.stderr.write(`loadlab: the exit ended ${leftToTheExit} VU resources left to it\n`);
      // What VUs leave is sockets and isolates: a timer still pending is something else left behind.
      const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate');
      if (timers.length > 0) process.stderr.write(`loadlab: the exit was held by ${timers.join(', ')}\n`);
    }
    void exitAfterSettling(code);
    return;
  }
  setTimeout(() => {
    if (debug) {
      process.stderr.write(`loadlab: the exit was held by ${process.getActiveResourcesInfo().join(', ')}\n`);
    }
    void exitAfterSettling(code);
  }, THREAD_LEAVE_MS).unref();
}

/** settleIsolates(), then process.exit(code) once stdout is written. */
export async function exitAfterSettling(code: number): Promise<void> {
  await settleIsolates();
  process.stdout.write('', () => {
    exitingAtOnce = true;
    process.exit(code);
  });
}

/** process.exit() tears nothing down: the collection at exit is not needed then. */
let exitingAtOnce = false;
let collectingAtExit = false;

/**
 * Once isolated-vm is loaded: a full garbage collection as the process exits by itself, so that V8
 * is not marking when Node tears the main isolate down (see the top of this file).
 */
export function collectAtExit(): void {
  if (collectingAtExit) return;
  collectingAtExit = true;
  // A context made once the flag is set has V8's gc(); the main context has none.
  setFlagsFromString('--expose-gc');
  const gc = runInNewContext('gc') as () => void;
  process.on('exit', () => {
    if (!exitingAtOnce) gc();
  });
}
