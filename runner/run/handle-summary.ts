// The end-of-test summary: the script's handleSummary (on VU 0) or k6's text, plus
// --summary-export, written where each key says (stdout, stderr or a file).
import { writeFileSync } from 'node:fs';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { SUMMARY_NOT_A_MAP } from '../bridge/protocol.js';
import type { RunFlags } from '../options/run-flags.js';
import type { Vu } from '../host/vu.js';
import { summaryExportText, type MetricsEngine, type SummaryData } from '../metrics/index.js';
import type { TestConfig } from '../options/options.js';
import { renderTextSummary } from '../summary/text-summary.js';
import type { ConsoleIO } from './console.js';
import type { RunLog } from './run-log.js';

export async function writeSummary(
  vu0: Vu,
  data: SummaryData,
  engine: MetricsEngine,
  config: TestConfig,
  flags: RunFlags,
  io: ConsoleIO,
  log: RunLog,
): Promise<void> {
  let result: Record<string, string | ArrayBuffer> | undefined;
  try {
    result = await vu0.handleSummary(data);
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
