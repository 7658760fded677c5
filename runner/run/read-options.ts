// The second phase: VU 0 runs the init code, and its exported options, the environment and the
// flags become the test's configuration and its metrics engine; k6's line and exit code otherwise.
import { pathToFileURL } from 'node:url';
import type { RunFlags } from '../options/run-flags.js';
import { UncaughtInInitError, type Vu } from '../host/hosted-vu.js';
import { MetricsEngine, parseThresholds, ThresholdSyntaxError } from '../metrics/index.js';
import {
  consolidate,
  OptionsError,
  OptionsLoadError,
  OptionsPlainError,
  type TestConfig,
} from '../options/options.js';
import { EXIT } from './exit-codes.js';
import { isTestAbort, type RunLog } from './run-log.js';

export interface ConfiguredTest {
  config: TestConfig;
  engine: MetricsEngine;
  /** The script's exports: which of setup and teardown get a VU of their own. */
  exports: readonly string[];
}

/** k6's line for a script it cannot load: an init that throws, or options it cannot decode. */
function couldNotLoad(script: string, scriptPath: string, message: string): string {
  return `could not initialize '${script}': could not load JS test '${pathToFileURL(scriptPath).href}': ${message}`;
}

export async function readTestOptions(
  vu0: Vu,
  scriptPath: string,
  flags: RunFlags,
  env: NodeJS.ProcessEnv,
  log: RunLog,
): Promise<ConfiguredTest | number> {
  let init: Awaited<ReturnType<Vu['init']>>;
  try {
    // The declared custom metrics let thresholds on unknown metrics fail before the test, as in k6.
    init = await vu0.init();
  } catch (error) {
    if (error instanceof UncaughtInInitError) {
      // k6 cannot load such a script at all: its line, no hint, a plain error's exit code.
      log('error', couldNotLoad(flags.script, scriptPath, error.message));
      return EXIT.plainError;
    }
    const message = (error as Error).message;
    if (isTestAbort(message)) {
      // exec.test.abort() in init: k6 cannot load the test, and exits as aborted by the script.
      log('error', couldNotLoad(flags.script, scriptPath, message));
      return EXIT.scriptAborted;
    }
    log('error', message, { hint: 'script exception' });
    return EXIT.scriptException;
  }

  let config: TestConfig;
  let engine: MetricsEngine;
  try {
    config = consolidate(init.options, env, flags, (name) => init.exports.includes(name));
    engine = new MetricsEngine({
      thresholds: parseThresholds(config.thresholds),
      summaryTrendStats: config.summaryTrendStats,
      noThresholds: config.noThresholds,
      // Per-group and per-scenario aggregates cost a second copy of trend values: only for `full`.
      sectionAggregates: config.summaryMode === 'full',
    });
    if (init.metrics) engine.validateAgainst(init.metrics);
    // A named exec missing from the exports is among consolidate's validation problems, as in k6.
    if (config.scenarios.some((s) => s.exec === 'default' && !init.exports.includes('default')))
      throw new OptionsError(
        'could not initialize the script: no exported default function and no scenario with exec',
      );
  } catch (error) {
    if (error instanceof OptionsLoadError) {
      log('error', couldNotLoad(flags.script, scriptPath, error.message));
      return error.plain ? EXIT.plainError : EXIT.invalidConfig;
    }
    if (error instanceof OptionsPlainError) {
      log('error', error.message);
      return EXIT.plainError;
    }
    if (error instanceof OptionsError || error instanceof ThresholdSyntaxError) {
      log('error', error.message);
      return EXIT.invalidConfig;
    }
    throw error;
  }
  for (const warning of config.warnings) log('warn', warning);
  if (config.summaryMode === 'legacy') {
    log(
      'warn',
      'The "legacy" summary mode has been deprecated, and will be removed by k6 v2.0. ' +
        'Please, migrate to either "compact" or "full" as soon as possible.',
    );
  }
  return { config, engine, exports: init.exports };
}
