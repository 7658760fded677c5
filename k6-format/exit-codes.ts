// k6's exit codes (errext/exitcodes), by the cause a run ends with: the runner exits with them, and the
// report, the stack's checks and test:report read them by name.
export const EXIT = {
  ok: 0,
  thresholds: 99,
  setupTimeout: 100,
  teardownTimeout: 101,
  invalidConfig: 104,
  externalAbort: 105,
  scriptException: 107,
  scriptAborted: 108,
  markedFailed: 110,
  /** An error that carries no exit code of its own: k6 exits with -1, which the OS reports as 255. */
  plainError: 255,
} as const;
