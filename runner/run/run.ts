// One `loadlab run`, as a sequence of phases each with one job: the script loaded, its options read
// (VU 0's init), the outputs started and the banner printed, the scheduler (VUs, setup, scenarios),
// and the end (teardown, thresholds, summary, exit code), k6's exit code from the first that fails.
import type { RunFlags } from '../options/run-flags.js';
import { closeWarmVuThreads, ScriptError, UncaughtInPromiseError, warmVuThreads } from '../host/hosted-vu.js';
import { chooseVuHost, isolatesLikely, vuHostEnvError } from '../host/vu-host-choice.js';
import type { MetricsEngine } from '../metrics/index.js';
import { SecretRedactor } from '../options/secret-sources.js';
import { runtimeEnvError, type TestConfig } from '../options/options.js';
import type { Output } from '../contracts.js';
import { logo, progressText, runLimits, startProgress, type ConsoleIO } from './console.js';
import { endTest, type FinishedRun } from './end-of-test.js';
import { EXIT } from './exit-codes.js';
import {
  abortedBySignal,
  boundPhase,
  phaseTimedOut,
  PhaseVu,
  uncaughtInPromise,
  type RunEnding,
} from './phase.js';
import { isTestAbort, runLog, scriptException, withoutLocation, type RunLog } from './run-log.js';
import { RunController, Scheduler, VuInitError } from './scheduler.js';
import { startOutputs } from './start-outputs.js';
import { readTestOptions } from './read-options.js';
import { openScript } from './open-script.js';
import { thresholdsDuringRun } from './thresholds.js';
import { runHooks, SampleRoute, scriptEnv, VuFactory } from './vu-factory.js';

export { EXIT } from './exit-codes.js';
export { RunController } from './scheduler.js';

export async function runTest(
  flags: RunFlags,
  io: ConsoleIO,
  env: NodeJS.ProcessEnv,
  controller = new RunController(),
): Promise<number> {
  const redactor = new SecretRedactor();
  const log = runLog(io, redactor);
  // Where VUs are worker threads, those of VU 0 and VU 1 boot while the script is bundled and VU 0
  // reads the options; where they are isolates, the isolates' code is built meanwhile.
  if (!isolatesLikely(env)) warmVuThreads(2);
  try {
    return await runOpened(flags, io, env, controller, log, redactor);
  } finally {
    // A run that ends before a VU took them (a script or options error) ends them, not Node's exit.
    await closeWarmVuThreads();
  }
}

async function runOpened(
  flags: RunFlags,
  io: ConsoleIO,
  env: NodeJS.ProcessEnv,
  controller: RunController,
  log: RunLog,
  redactor: SecretRedactor,
): Promise<number> {
  const script = await openScript(flags, log, env, () => {
    if (!flags.quiet) io.out(logo());
  });
  if (typeof script === 'number') return script;
  // As k6: a runtime option's K6_* boolean that does not parse stops the run before the script runs.
  const envError = runtimeEnvError(env) ?? vuHostEnvError(env);
  if (envError) {
    log('error', envError);
    return EXIT.plainError;
  }

  const host = await chooseVuHost(script.bundle, env);
  if (host.note && host.degraded) log('warn', host.note);
  else if (host.note && flags.verbose) log('debug', host.note);
  const route = new SampleRoute();
  const vus = new VuFactory(script, scriptEnv(env, flags), runHooks(flags, log, redactor, route), host.start);
  try {
    // VU 0 reads the options and later runs setup, teardown and handleSummary, as k6's extra VUs do.
    const vu0 = vus.make(0, { ...flags.tags });
    const phaseVu = new PhaseVu(vu0, vus, { ...flags.tags });
    const test = await readTestOptions(vu0, script.scriptPath, flags, env, log);
    if (typeof test === 'number') return test;
    const { config, engine, exports } = test;
    route.engine = engine;
    vus.useOptions(config.options);

    const outputs = await startOutputs(config, script.scriptPath, flags, env, io, log);
    if (typeof outputs === 'number') return outputs;
    route.outputs = outputs;

    const run = await runScenarios(phaseVu, {
      config,
      exports,
      engine,
      outputs,
      vus,
      route,
      controller,
      flags,
      io,
      log,
    });
    if (typeof run === 'number') return run;
    return await endTest(run, { config, exports, engine, outputs, controller, flags, io, log });
  } catch (error) {
    if (error instanceof ScriptError) return scriptException(log, error);
    throw error;
  } finally {
    await vus.closeAll();
  }
}

interface SchedulingContext {
  config: TestConfig;
  exports: readonly string[];
  engine: MetricsEngine;
  outputs: Output[];
  vus: VuFactory;
  route: SampleRoute;
  controller: RunController;
  flags: RunFlags;
  io: ConsoleIO;
  log: RunLog;
}

/** The scheduler's phase: every VU initialised, setup on VU 0, then the scenarios with their watchers. */
async function runScenarios(vu0: PhaseVu, ctx: SchedulingContext): Promise<FinishedRun | number> {
  const { config, engine, outputs, controller, flags, io, log } = ctx;
  const scheduler = new Scheduler({
    config,
    vus: ctx.vus,
    onSamples: (samples) => ctx.route.add(samples),
    log,
    controller,
  });
  try {
    // A signal ends the VUs' init at once, whatever their init code is doing (their threads end with the run).
    const init = await boundPhase(scheduler.initVus(), Number.POSITIVE_INFINITY, controller.stopped);
    if (init.ended) return endedEarly(vu0, performance.now(), abortedBySignal(controller.signal));
  } catch (error) {
    if (error instanceof VuInitError) return scriptException(log, error, error.vuId);
    return scriptException(log, error);
  }
  // As k6's, the test run's duration (the summary's, the rates over it, the progress line's) counts
  // from setup: the VUs' init, seconds at a thousand VUs, is not part of it.
  const testStart = performance.now();
  ctx.vus.markTestStart(performance.timeOrigin + testStart);

  const setup = await runSetup(vu0, config, ctx.exports, controller);
  if ('ending' in setup) return endedEarly(vu0, testStart, setup.ending);
  const { setupData } = setup;

  const limits = runLimits(config.scenarios);
  const outcome = await scheduler.run(setupData, {
    thresholds: thresholdsDuringRun(engine, outputs, log, controller, testStart),
    display: (s) =>
      flags.quiet
        ? { stop: () => {}, final: () => {} }
        : startProgress(io, () =>
            progressText(s.runs, performance.now() - testStart, s.allocatedVus(), limits, {
              tty: io.isTTY,
              termWidth: io.columns ?? 80,
              color: io.isTTY && !flags.noColor,
            }),
          ),
  });
  ctx.vus.releaseScenarioVus();
  return { ...outcome, vu0, setupData, testStart };
}

/** A run that ended before its scenarios: no scenario, no teardown, but the summary and the outputs as always. */
function endedEarly(vu0: PhaseVu, testStart: number, ending: RunEnding): FinishedRun {
  const display = { stop: () => {}, final: () => {} };
  return { runs: [], markedFailed: undefined, display, vu0, setupData: undefined, testStart, ending };
}

/**
 * setup() on VU 0, ended as k6 ends it: by its exception (107), its setupTimeout (100) or the first
 * signal (105), each of which ends the run before the scenarios.
 */
async function runSetup(
  vu0: PhaseVu,
  config: TestConfig,
  exports: readonly string[],
  controller: RunController,
): Promise<{ setupData: unknown } | { ending: RunEnding }> {
  // As k6: no setup, no VU for it.
  if (!exports.includes('setup') || config.noSetup) return { setupData: undefined };
  try {
    const vu = await vu0.fresh();
    const setup = await boundPhase(vu.runSetup(config.options), config.setupTimeoutMs, controller.stopped);
    if (setup.ended === false) return { setupData: setup.value };
    vu0.abandon();
    return {
      ending:
        setup.ended === 'timeout'
          ? phaseTimedOut('setup', config.setupTimeoutMs)
          : abortedBySignal(controller.signal),
    };
  } catch (error) {
    const message = (error as Error).message;
    // exec.test.abort() in setup: k6's line without the location, exit 108, the summary written.
    if (isTestAbort(message))
      return { ending: { code: EXIT.scriptAborted, log: (log) => log('error', withoutLocation(message)) } };
    if (error instanceof UncaughtInPromiseError) return { ending: uncaughtInPromise(error) };
    return { ending: { code: EXIT.scriptException, log: (log) => scriptException(log, error) } };
  }
}
