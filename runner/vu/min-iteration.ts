// k6's minIterationDuration: an iteration that ended sooner is followed by a wait for the rest of it
// before the VU's next iteration (k6's ActiveVU.RunOnce). The wait is not the iteration's: its
// samples and iteration_duration are already out, and a wait cut short (the scenario's hard stop)
// leaves it a complete iteration. An interrupted or aborting iteration has no wait.
import { parseDuration } from '@loadlab/k6-format/duration';

let readFrom: unknown;
let minimumMs = 0;

/** The option's milliseconds (options.ts writes it as Go prints a duration; 0 when unset). */
export function minIterationMs(testOptions: Record<string, unknown> | undefined): number {
  const text = testOptions?.minIterationDuration;
  if (text !== readFrom) {
    readFrom = text;
    minimumMs = typeof text === 'string' ? parseDuration(text) : 0;
  }
  return minimumMs;
}

/** How long a VU whose iteration took `tookMs` waits before its next one. */
export function waitAfterIterationMs(
  testOptions: Record<string, unknown> | undefined,
  tookMs: number,
): number {
  return Math.max(0, minIterationMs(testOptions) - tookMs);
}
