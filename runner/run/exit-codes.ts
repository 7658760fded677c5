// k6's exit codes (errext/exitcodes), one per cause a run can end with.
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
