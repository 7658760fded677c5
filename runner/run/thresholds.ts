// The thresholds during the run (every 2 s, on the scheduler's beat): outputs that show verdicts
// get them, and a crossed abortOnFail threshold (or a threshold that cannot be evaluated) stops the test.
import type { MetricsEngine } from '../metrics/index.js';
import type { Output, ThresholdAwareOutput } from '../contracts.js';
import type { RunLog } from './run-log.js';
import type { RunController } from './scheduler.js';

export function isThresholdAware(o: Output): o is ThresholdAwareOutput {
  return typeof (o as Partial<ThresholdAwareOutput>).setThresholds === 'function';
}

/** One evaluation of the thresholds while the scenarios run, `testStart` (performance.now()) being when setup began. */
export function thresholdsDuringRun(
  engine: MetricsEngine,
  outputs: Output[],
  log: RunLog,
  controller: RunController,
  testStart: number,
): () => void {
  return () => {
    const result = engine.evaluate({ final: false, elapsedMs: performance.now() - testStart });
    for (const o of outputs) if (isThresholdAware(o)) o.setThresholds(result.states);
    if (engine.fatal) {
      log('error', engine.fatal.message);
      controller.requestStop('thresholds');
    } else if (result.abort && !controller.stopReason) {
      log(
        'error',
        `thresholds on metrics '${result.failedMetrics.join(', ')}' were crossed; at least one has abortOnFail enabled, stopping test prematurely`,
      );
      controller.requestStop('thresholds');
    }
  };
}
