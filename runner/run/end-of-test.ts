// The last phase: teardown on VU 0, the final thresholds, the summary (handleSummary or k6's
// text), the progress display's last block, the outputs flushed, and the exit code k6 would give.
import type { RunFlags } from '../options/run-flags.js';
import type { MetricsEngine } from '../metrics/index.js';
import type { TestConfig } from '../options/options.js';
import type { Output } from '../contracts.js';
import type { ConsoleIO } from './console.js';
import { EXIT } from './exit-codes.js';
import { writeSummary } from './handle-summary.js';
import { UncaughtInPromiseError } from '../script/errors.js';
import {
  abortedBySignal,
  boundPhase,
  phaseTimedOut,
  uncaughtInPromise,
  type PhaseVu,
  type RunEnding,
} from './phase.js';
import type { RunLog } from './run-log.js';
import type { RunController, ScenariosOutcome } from './scheduler.js';
import { isThresholdAware } from './thresholds.js';

/** What the phases before hand to the end of the test. */
export interface FinishedRun extends ScenariosOutcome {
  vu0: PhaseVu;
  /** setup() ended the run (threw, timed out, a signal): no teardown, k6's line after the summary. */
  ending?: RunEnding;
  setupData: unknown;
  /** When setup began (performance.now()): the test run's duration counts from there. */
  testStart: number;
}

export interface EndContext {
  config: TestConfig;
  /** The script's exports: no teardown, no VU for it. */
  exports: readonly string[];
  engine: MetricsEngine;
  outputs: Output[];
  controller: RunController;
  flags: RunFlags;
  io: ConsoleIO;
  log: RunLog;
}

export async function endTest(run: FinishedRun, ctx: EndContext): Promise<number> {
  const { config, engine, outputs, controller, flags, io, log } = ctx;
  let teardownFailed = false;
  let ending = run.ending;
  if (!ending && ctx.exports.includes('teardown') && !config.noTeardown) {
    try {
      // As k6, teardown is not cut short by the first signal, only by its timeout (or a second signal).
      const vu = await run.vu0.fresh();
      const teardown = await boundPhase(
        vu.runTeardown(run.setupData, config.options),
        config.teardownTimeoutMs,
      );
      if (teardown.ended) {
        run.vu0.abandon();
        ending = phaseTimedOut('teardown', config.teardownTimeoutMs);
      }
    } catch (error) {
      if (error instanceof UncaughtInPromiseError) ending = uncaughtInPromise(error);
      else {
        teardownFailed = true;
        log('error', (error as Error).message, { hint: 'script exception' });
      }
    }
  }
  // As k6, after teardown, when a run that ended by itself (not by Ctrl-C or an error) saw no iteration end.
  if (!ending && !teardownFailed && !controller.stopReason && run.runs.every((r) => r.completed === 0)) {
    log('warn', 'No script iterations fully finished, consider making the test duration longer');
  }
  const testRunDurationMs = performance.now() - run.testStart;

  const final = engine.evaluate({ final: true, elapsedMs: testRunDurationMs });
  for (const o of outputs) if (isThresholdAware(o)) o.setThresholds(final.states);
  const data = engine.summaryData({
    testRunDurationMs,
    setupData: run.setupData,
    isStdOutTTY: io.isTTY,
    isStdErrTTY: io.isTTY,
    noColor: flags.noColor,
    summaryTimeUnit: config.summaryTimeUnit,
  });

  if (config.summaryMode !== 'disabled') {
    await writeSummary(run.vu0, data, engine, config, flags, io, log);
  }
  run.display.final();
  await stopOutputs(outputs, log);

  // k6 logs the error that ended the run last, and a signal's wins over what teardown did (k6's
  // scheduler returns the run's cancel reason), as over crossed thresholds.
  if (!ending && controller.stopReason === 'signal') ending = abortedBySignal(controller.signal);
  if (ending) {
    ending.log(log);
    return ending.code;
  }
  if (controller.stopReason === 'abort') return EXIT.scriptAborted;
  if (engine.fatal) return EXIT.invalidConfig;
  if (teardownFailed) return EXIT.scriptException;
  if (final.failedMetrics.length > 0) {
    if (controller.stopReason !== 'thresholds')
      log('error', `thresholds on metrics '${final.failedMetrics.join(', ')}' have been crossed`);
    return EXIT.thresholds;
  }
  if (controller.stopReason === 'thresholds') return EXIT.thresholds;
  if (run.markedFailed !== undefined) {
    log('error', 'test run was marked as failed');
    return EXIT.markedFailed;
  }
  return EXIT.ok;
}

/** How long an output may take to flush and close: one that is stuck (a hung disk or store) never holds the process. */
const OUTPUT_STOP_MS = 30_000;

async function stopOutputs(outputs: Output[], log: RunLog): Promise<void> {
  await Promise.all(
    outputs.map(async (o) => {
      try {
        const stop = await boundPhase(o.stop(), OUTPUT_STOP_MS);
        if (stop.ended) log('warn', `output ${o.description} did not stop within ${OUTPUT_STOP_MS / 1000}s`);
      } catch (error) {
        log('warn', `output ${o.description}: ${(error as Error).message}`);
      }
    }),
  );
}
