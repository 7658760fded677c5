// How the command line's process ends once its run is over. The VUs' threads need nothing of this:
// the shared-isolate addon parks them when the process exits (native/vu_host.cc). What is left is
// sockets: a closing VU of the command line leaves them to the exit instead of closing each in turn
// (1,000 VUs' HTTP connections took ~0.5 s of such a run's end), and a handle something else left
// open must not hold the process past its run.

/** How long the process may take to end by itself before it is ended. */
const OWN_END_MS = 100;

/**
 * Whether closing VUs leave their sockets to the process's exit (leaveVusToExit()), and how many
 * such things were left.
 */
let leavingToExit = false;
let leftToTheExit = 0;

/**
 * For the command line, whose process ends with the run: from now on a closing VU leaves its sockets
 * for the exit to end. A run inside a longer process (a test, a library user) does not call this and
 * keeps closing them.
 */
export function leaveVusToExit(): void {
  leavingToExit = true;
}

/** Whether a closing VU leaves its sockets to the exit. Counted: exitWith() then ends the process itself. */
export function leftToExit(): boolean {
  if (leavingToExit) leftToTheExit += 1;
  return leavingToExit;
}

/**
 * Ends the process with `code` once stdout is written: at once when VUs left sockets to the exit,
 * else when nothing is left to run, or OWN_END_MS later if a lingering handle holds it.
 * LOADLAB_DEBUG_EXIT=1 prints a line when the exit does not happen by itself, and why.
 */
export function exitWith(code: number): void {
  process.exitCode = code;
  const debug = Boolean(process.env.LOADLAB_DEBUG_EXIT);
  if (leftToTheExit > 0) {
    if (debug) {
      process.stderr.write(`loadlab: the exit ended ${leftToTheExit} VU resources left to it\n`);
      // What VUs leave is sockets: a timer still pending is something else left behind.
      const timers = process.getActiveResourcesInfo().filter((r) => r === 'Timeout' || r === 'Immediate');
      if (timers.length > 0) process.stderr.write(`loadlab: the exit was held by ${timers.join(', ')}\n`);
    }
    exitNow(code);
    return;
  }
  setTimeout(() => {
    if (debug) {
      process.stderr.write(`loadlab: the exit was held by ${process.getActiveResourcesInfo().join(', ')}\n`);
    }
    exitNow(code);
  }, OWN_END_MS).unref();
}

/** process.exit(code) once stdout is written (a pipe's pending output would be lost). */
export function exitNow(code: number): void {
  process.stdout.write('', () => process.exit(code));
}
