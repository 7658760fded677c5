// The end-of-test summary: the script's handleSummary (on VU 0) or k6's text, plus
// --summary-export, written where each key says (stdout, stderr or a file).
import { writeFileSync } from 'node:fs';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { SUMMARY_NOT_A_MAP } from '../bridge/protocol.js';
import type { RunFlags } from '../options/run-flags.js';
import { summaryExportText, type MetricsEngine, type SummaryData } from '../metrics/index.js';
import type { TestConfig } from '../options/options.js';
import { renderTextSummary } from '../summary/text-summary.js';
import type { ConsoleIO } from './console.js';
import { boundPhase, timedOutText, type PhaseVu } from './phase.js';
import type { RunLog } from './run-log.js';

/** How long handleSummary may take, its VU's start included: k6's getTimeoutFor, which no option sets. */
export const HANDLE_SUMMARY_TIMEOUT_MS = 120_000;

export async function writeSummary(
  vu0: PhaseVu,
  data: SummaryData,
  engine: MetricsEngine,
  config: TestConfig,
  flags: RunFlags,
  io: ConsoleIO,
  log: RunLog,
  timeoutMs = HANDLE_SUMMARY_TIMEOUT_MS,
): Promise<void> {
  let result: Record<string, string | ArrayBuffer> | undefined;
  try {
    const call = await boundPhase(
      // As k6, on a VU 0 of its own, whether or not the script exports handleSummary.
      vu0.fresh().then((vu) => vu.handleSummary(data, config.options)),
      timeoutMs,
    );
    if (call.ended) {
      // As k6: the interrupted call's error (k6 adds where the script was, which an isolate or
      // worker ended from outside cannot tell), then its timeout error; nothing is written.
      vu0.abandon();
      log('error', 'context canceled');
      log('error', 'failed to handle the end-of-test summary', {
        error: timedOutText('handleSummary', timeoutMs),
      });
      return;
    }
    result = call.value;
  } catch (error) {
    const message = (error as Error).message;
    // k6 refuses a result that is no object and then writes nothing, not even --summary-export.
    if (message.includes(SUMMARY_NOT_A_MAP)) {
      log('error', 'failed to handle the end-of-test summary', { error: SUMMARY_NOT_A_MAP });
      return;
    }
    // k6 logs the script's exception as it is, with its hint, and still prints its own summary.
    log('error', message, { hint: 'script exception' });
  }
  if (!result) {
    const mode = config.summaryMode === 'disabled' ? 'compact' : config.summaryMode;
    const text = renderTextSummary(data, {
      mode,
      color: io.isTTY && !flags.noColor,
      observations: engine.thresholdObservations(),
      orderedChecks: engine.tree.orderedChecks(),
      sections: mode === 'full' ? engine.summarySections(data.state.testRunDurationMs) : undefined,
    });
    result = { stdout: `\n${text}\n\n` };
  }
  if (config.summaryExport) result[config.summaryExport] = summaryExportText(data);
  // As k6's handleSummaryResult: no folder is made, each file that cannot be written is listed
  // in one error, and the others are still written.
  const failures: string[] = [];
  for (const [key, value] of Object.entries(result)) {
    const content = typeof value === 'string' ? value : Buffer.from(value);
    if (key === 'stdout') io.out(String(content));
    else if (key === 'stderr') io.err(String(content));
    else {
      try {
        writeFileSync(key, content);
      } catch (error) {
        failures.push(`\t- could not open '${key}': ${goPathError('open', key, error)}`);
      }
    }
  }
  if (failures.length > 0) {
    log('error', 'failed to handle the end-of-test summary', {
      error: ['Could not save some summary information:', ...failures].join('\n'),
    });
  }
}
