// One `loadlab run`: load the script, read its options, start outputs, initialise VUs, run setup,
// the scenarios and teardown, evaluate thresholds, hand the summary to handleSummary, and decide
// the exit code exactly as k6 does.
import { existsSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  MetricsEngine,
  parseThresholds,
  summaryExportText,
  ThresholdSyntaxError,
  type SummaryData,
} from '../metrics/index.js';
import { renderTextSummary } from '../summary/text-summary.js';
import { createOutputs, dashboardOutput } from '../outputs/index.js';
import type { Output, Sample, ThresholdAwareOutput } from '../types.js';
import {
  createVu,
  INSTANCE_STATS,
  INSTANCE_STATS_SLOTS,
  loadScript,
  ScriptError,
  ScriptLoadError,
  UncaughtInInitError,
  warmVuThreads,
  type Vu,
  type VuConfig,
  type VuHooks,
} from '../host/vu.js';
import type { RunFlags } from '../cli/args.js';
import {
  parseSecretSources,
  SecretRedactor,
  SecretSourceError,
  type SecretSources,
} from '../options/secret-sources.js';
import { banner, logLine, maxDurationMs, progressText, startProgress, type ConsoleIO } from './console.js';
import { ScenarioRun, type PooledVu } from './scenario-run.js';
import { consolidate, OptionsError, scenarioMaxVus, type TestConfig } from '../options/options.js';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { moduleProblem } from '../modules/api/names.js';

export const EXIT = {
  ok: 0,
  thresholds: 99,
  invalidConfig: 104,
  externalAbort: 105,
  scriptException: 107,
  scriptAborted: 108,
  markedFailed: 110,
  /** An error that carries no exit code of its own: k6 exits with -1, which the OS reports as 255. */
  plainError: 255,
} as const;

const INIT_CONCURRENCY = 8;

function isThresholdAware(o: Output): o is ThresholdAwareOutput {
  return typeof (o as Partial<ThresholdAwareOutput>).setThresholds === 'function';
}

/**
 * `fn` over `items`, at most `size` at a time, results in the items' order: a new one starts as
 * soon as one ends (batches waited for their slowest VU). After a failure no new one starts.
 */
async function inPool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  let failed = false;
  const lane = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        results[i] = await fn(items[i]!);
      } catch (error) {
        failed = true;
        throw error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, lane));
  return results;
}

export class RunController {
  private stopRequested: 'signal' | 'abort' | 'thresholds' | undefined;
  private runs: ScenarioRun[] = [];

  /** First Ctrl-C: stop gracefully and still write the summary. */
  requestStop(reason: 'signal' | 'abort' | 'thresholds'): void {
    this.stopRequested ??= reason;
    this.runs.forEach((r) => r.stopNow());
  }

  get stopReason() {
    return this.stopRequested;
  }

  track(runs: ScenarioRun[]): void {
    this.runs = runs;
  }
}

export async function runTest(
  flags: RunFlags,
  io: ConsoleIO,
  env: NodeJS.ProcessEnv,
  controller = new RunController(),
): Promise<number> {
  // k6 redacts every secret a script has read from every later log line, its own lines included.
  const redactor = new SecretRedactor();
  const log = (level: string, msg: string, fields?: Record<string, string>) =>
    io.err(logLine(level, redactor.redact(msg), redactor.fields(fields)));
  // k6 reads its secret sources with its logger, before it looks at the script.
  let secretSources: SecretSources;
  try {
    secretSources = parseSecretSources(flags.secretSources, process.cwd());
  } catch (error) {
    if (!(error instanceof SecretSourceError)) throw error;
    log('error', error.message);
    return EXIT.plainError;
  }
  const scriptPath = resolve(flags.script);
  if (!existsSync(scriptPath)) {
    log(
      'error',
      `The moduleSpecifier "${flags.script}" couldn't be found on local disk. Make sure that you've specified the right path to the file.`,
    );
    return EXIT.scriptException;
  }

  // The threads of VU 0 and VU 1 boot while the script is bundled and VU 0 reads the options.
  warmVuThreads(2);
  let bundle;
  try {
    bundle = await loadScript(scriptPath);
  } catch (error) {
    log('error', error instanceof ScriptLoadError ? error.message : String(error), {
      hint: 'script exception',
    });
    return EXIT.scriptException;
  }
  // A k6 module the runner cannot serve stops the run before any VU, in one line (GoError, as k6's).
  for (const name of bundle.k6Imports ?? []) {
    const problem = moduleProblem(name);
    if (problem !== undefined) {
      log('error', `GoError: ${problem}\n`, { hint: 'script exception' });
      return EXIT.scriptException;
    }
  }

  // k6 run exposes the system environment in __ENV; -e values win.
  const scriptEnv: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) scriptEnv[k] = v;
  Object.assign(scriptEnv, flags.env);

  const engineRef: { engine?: MetricsEngine; outputs: Output[] } = { outputs: [] };
  const hooks: VuHooks = {
    onSamples(samples: Sample[]) {
      engineRef.engine?.add(samples);
      for (const o of engineRef.outputs) o.addSamples(samples);
    },
    onLog(level, message, fields) {
      // k6 prints debug lines (console.debug) only with -v.
      if (level === 'debug' && !flags.verbose) return;
      // Lines without fields of their own (k6 module warnings) keep the console's source tag.
      log(level, message, fields ?? { source: 'console' });
    },
    onSecret: (value) => redactor.add(value),
  };
  // HTTP-affecting options reach the VUs once the script's options are known (VU 0 reads them).
  const httpOptions: Pick<VuConfig, 'systemTags' | 'userAgent' | 'insecureSkipTLSVerify'> = {};
  // exec.instance's numbers, shared by every VU (VU 0, which runs setup and teardown, is not counted).
  const instanceStats = new Int32Array(new SharedArrayBuffer(4 * INSTANCE_STATS_SLOTS));
  // k6/data's SharedArrays: the first VU to make one shares it with every VU started after it.
  const sharedArrays = new Map<string, SharedArrayBuffer>();
  const makeVu = (vuId: number, runTags: Record<string, string>): Vu =>
    createVu(
      {
        scriptPath,
        bundle,
        vuId,
        env: scriptEnv,
        runTags,
        ...httpOptions,
        instanceStats: instanceStats.buffer as SharedArrayBuffer,
        secretSources,
        sharedArrays,
      },
      hooks,
    );

  const vus: Vu[] = [];
  const closeAll = () => Promise.allSettled(vus.map((v) => v.close()));
  try {
    // VU 0 reads the options and later runs setup, teardown and handleSummary, as k6's extra VUs do.
    const vu0 = makeVu(0, { ...flags.tags });
    vus.push(vu0);
    let scriptOptions: Record<string, unknown>;
    let exportsList: string[];
    let declaredMetrics: { name: string; type: Sample['type']; contains: Sample['contains'] }[] | undefined;
    try {
      // The declared custom metrics let thresholds on unknown metrics fail before the test, as in k6.
      ({ options: scriptOptions, exports: exportsList, metrics: declaredMetrics } = await vu0.init());
    } catch (error) {
      if (error instanceof UncaughtInInitError) {
        // k6 cannot load such a script at all: its line, no hint, a plain error's exit code.
        const url = pathToFileURL(scriptPath).href;
        log(
          'error',
          `could not initialize '${flags.script}': could not load JS test '${url}': ${error.message}`,
        );
        return EXIT.plainError;
      }
      log('error', (error as Error).message, { hint: 'script exception' });
      return EXIT.scriptException;
    }

    let config: TestConfig;
    let engine: MetricsEngine;
    try {
      config = consolidate(scriptOptions, env, flags);
      engine = new MetricsEngine({
        thresholds: parseThresholds(config.thresholds),
        summaryTrendStats: config.summaryTrendStats,
        noThresholds: config.noThresholds,
        // Per-group and per-scenario aggregates cost a second copy of trend values: only for `full`.
        sectionAggregates: config.summaryMode === 'full',
      });
      if (declaredMetrics) engine.validateAgainst(declaredMetrics);
      for (const s of config.scenarios) {
        if (!exportsList.includes(s.exec)) {
          throw new OptionsError(
            s.exec === 'default'
              ? 'could not initialize the script: no exported default function and no scenario with exec'
              : `executor ${s.name}: function '${s.exec}' not found in exports`,
          );
        }
      }
    } catch (error) {
      if (error instanceof OptionsError || error instanceof ThresholdSyntaxError) {
        log('error', error.message);
        return EXIT.invalidConfig;
      }
      throw error;
    }
    engineRef.engine = engine;
    if (config.summaryMode === 'legacy') {
      log(
        'warn',
        'The "legacy" summary mode has been deprecated, and will be removed by k6 v2.0. ' +
          'Please, migrate to either "compact" or "full" as soon as possible.',
      );
    }
    const testOptions = config.options;
    if (Array.isArray(testOptions.systemTags)) httpOptions.systemTags = testOptions.systemTags.map(String);
    if (typeof testOptions.userAgent === 'string') httpOptions.userAgent = testOptions.userAgent;
    if (testOptions.insecureSkipTLSVerify === true) httpOptions.insecureSkipTLSVerify = true;

    const outputBase = {
      scriptPath,
      options: testOptions,
      env: { ...env },
      warn: (message: string) => log('warn', message),
    };
    try {
      engineRef.outputs = await createOutputs(config.outs, outputBase);
      const dashboard = await dashboardOutput(config.outs, outputBase);
      if (dashboard) engineRef.outputs.push(dashboard);
      for (const o of engineRef.outputs) await o.start();
    } catch (error) {
      // An unknown output type and an output that cannot start (a file that cannot be written)
      // both stop the run before it begins. k6 v1.3 returns both as plain errors (cmd/run.go), so
      // it exits 255, not with its invalid-config code.
      log('error', (error as Error).message);
      return EXIT.plainError;
    }
    const dashboardUrl = (engineRef.outputs.find((o) => 'url' in o) as { url?: string } | undefined)?.url;
    if (!flags.quiet) {
      io.out(
        banner(
          flags.script,
          engineRef.outputs.filter((o) => !('url' in o)).map((o) => o.description),
          config.scenarios,
          dashboardUrl,
        ),
      );
    }

    // Every VU a scenario can need is initialised before the test starts, as in k6.
    let nextVuId = 1;
    const pools = new Map<string, PooledVu[]>();
    const newPooled = async (scenarioTags: Record<string, string>): Promise<PooledVu> => {
      const vu = makeVu(nextVuId++, { ...config.runTags, ...scenarioTags });
      vus.push(vu);
      await vu.init();
      Atomics.add(instanceStats, INSTANCE_STATS.vusInitialized, 1);
      return { vu, busy: false, iterationsInScenario: 0 };
    };
    try {
      for (const s of config.scenarios) {
        const count = s.executor.endsWith('arrival-rate') ? s.preAllocatedVUs : scenarioMaxVus(s);
        pools.set(
          s.name,
          await inPool(Array.from({ length: count }), INIT_CONCURRENCY, () => newPooled(s.tags)),
        );
      }
    } catch (error) {
      log('error', (error as Error).message, { hint: 'script exception' });
      return EXIT.scriptException;
    }

    const testStart = Date.now();
    let setupData: unknown;
    try {
      setupData = await vu0.runSetup(testOptions);
    } catch (error) {
      log('error', (error as Error).message, { hint: 'script exception' });
      return EXIT.scriptException;
    }

    let markedFailed: string | undefined;
    let abortReason: string | undefined;
    // Shared with the VU workers: looping VUs number their iterations themselves.
    const instanceCounter = new Int32Array(new SharedArrayBuffer(4));
    const runs = config.scenarios.map(
      (s) =>
        new ScenarioRun(s, {
          vus: pools.get(s.name)!,
          growVu: async () => {
            const p = await newPooled(s.tags);
            pools.get(s.name)!.push(p);
            return p;
          },
          emitDropped: () =>
            hooks.onSamples([
              {
                metric: 'dropped_iterations',
                type: 'counter',
                contains: 'default',
                value: 1,
                tags: { ...config.runTags, ...s.tags, scenario: s.name },
                time: Date.now(),
              },
            ]),
          warn: (m) => log('warn', m, { executor: s.executor, scenario: s.name }),
          error: (m) => log('error', m, { executor: s.executor, scenario: s.name }),
          setupData,
          testOptions,
          instanceCounter,
          report: (result) => {
            if (result.error)
              log(
                'error',
                result.error,
                result.inPromise
                  ? { executor: s.executor, scenario: s.name }
                  : { executor: s.executor, scenario: s.name, source: 'stacktrace' },
              );
            if (result.markFailed !== undefined && markedFailed === undefined) {
              markedFailed = result.markFailed;
              log('error', `test marked as failed: ${result.markFailed}`);
            }
            if (result.abort && abortReason === undefined) {
              abortReason = result.abort.reason;
              log('error', result.abort.reason); // k6's line, location included
              controller.requestStop('abort');
            }
          },
        }),
    );
    controller.track(runs);

    // Initialised VUs: arrival-rate executors add VUs during the run, up to maxVUs.
    const allocatedVus = () => [...pools.values()].reduce((n, p) => n + p.length, 0);
    const gauges = setInterval(() => {
      const active = runs.reduce((n, r) => n + r.activeVus, 0);
      const allocated = allocatedVus();
      const t = Date.now();
      hooks.onSamples([
        {
          metric: 'vus',
          type: 'gauge',
          contains: 'default',
          value: active,
          tags: { ...config.runTags },
          time: t,
        },
        {
          metric: 'vus_max',
          type: 'gauge',
          contains: 'default',
          value: allocated,
          tags: { ...config.runTags },
          time: t,
        },
      ]);
    }, 1000);
    const thresholdTimer = setInterval(() => {
      const result = engine.evaluate({ final: false, elapsedMs: Date.now() - testStart });
      for (const o of engineRef.outputs) if (isThresholdAware(o)) o.setThresholds(result.states);
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
    }, 2000);
    const progress = flags.quiet
      ? { stop: () => {}, final: () => {} }
      : startProgress(io, () =>
          progressText(runs, Date.now() - testStart, allocatedVus(), maxDurationMs(config.scenarios), {
            tty: io.isTTY,
            termWidth: io.columns ?? 80,
            color: io.isTTY && !flags.noColor,
          }),
        );

    await Promise.all(runs.map((run) => run.runAtStartTime(() => controller.stopReason !== undefined)));
    // The scenarios' VUs have nothing left to run: their threads end while VU 0 runs teardown and
    // handleSummary (closeAll below waits for them). Ending 124 threads took 0.3-0.5 s on this host.
    void Promise.allSettled(vus.slice(1).map((v) => v.close()));
    clearInterval(gauges);
    clearInterval(thresholdTimer);
    progress.stop();

    let teardownFailed = false;
    try {
      await vu0.runTeardown(setupData, testOptions);
    } catch (error) {
      teardownFailed = true;
      log('error', (error as Error).message, { hint: 'script exception' });
    }
    // As k6, after teardown, when a run that ended by itself (not by Ctrl-C) saw no iteration end.
    if (!controller.stopReason && runs.every((run) => run.completed === 0)) {
      log('warn', 'No script iterations fully finished, consider making the test duration longer');
    }
    const testRunDurationMs = Date.now() - testStart;

    const final = engine.evaluate({ final: true, elapsedMs: testRunDurationMs });
    for (const o of engineRef.outputs) if (isThresholdAware(o)) o.setThresholds(final.states);
    const data: SummaryData = engine.summaryData({
      testRunDurationMs,
      setupData,
      isStdOutTTY: io.isTTY,
      isStdErrTTY: io.isTTY,
      noColor: flags.noColor,
      summaryTimeUnit: config.summaryTimeUnit,
    });

    if (config.summaryMode !== 'disabled') {
      await writeSummary(vu0, data, engine, config, flags, io, log);
    }
    progress.final();
    for (const o of engineRef.outputs) {
      try {
        await o.stop();
      } catch (error) {
        log('warn', `output ${o.description}: ${(error as Error).message}`);
      }
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
    if (controller.stopReason === 'signal') return EXIT.externalAbort;
    if (markedFailed !== undefined) {
      log('error', 'test run was marked as failed');
      return EXIT.markedFailed;
    }
    return EXIT.ok;
  } catch (error) {
    if (error instanceof ScriptError) {
      log('error', error.message, { hint: 'script exception' });
      return EXIT.scriptException;
    }
    throw error;
  } finally {
    await closeAll();
  }
}

async function writeSummary(
  vu0: Vu,
  data: SummaryData,
  engine: MetricsEngine,
  config: TestConfig,
  flags: RunFlags,
  io: ConsoleIO,
  log: (level: string, msg: string, fields?: Record<string, string>) => void,
): Promise<void> {
  let result: Record<string, string | ArrayBuffer> | undefined;
  try {
    result = await vu0.handleSummary(data);
  } catch (error) {
    // k6 logs the script's exception as it is and still prints its own summary.
    log('error', (error as Error).message);
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
