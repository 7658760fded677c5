// The scheduler (k6 internal/execution/scheduler.go): every scenario's VU pool initialised before
// the test starts, one ScenarioRun per scenario started at its startTime, the vus/vus_max gauges,
// the 2 s beat the thresholds are evaluated on, and the stops (Ctrl-C, test.abort(), abortOnFail)
// through the RunController. What the end of the test needs comes back from run().
import { INSTANCE_STATS, type IterationResult } from '../host/hosted-vu.js';
import type { ScenarioConfig, TestConfig } from '../options/options.js';
import type { Sample } from '../contracts.js';
import { ScenarioRun, type PooledVu, type ScenarioDeps } from './scenario-run.js';
import type { ProgressDisplay } from './console.js';
import type { RunLog } from './run-log.js';
import type { VuFactory } from './vu-factory.js';
import { executorOf } from '../executors/index.js';
import { maxPlannedVus } from '../executors/execution-plan.js';

/** VUs initialised at once: a new one starts as soon as one is ready. */
const INIT_CONCURRENCY = 8;

/**
 * `fn` over `items`, at most `size` at a time, results in the items' order: a new one starts as
 * soon as one ends (batches waited for their slowest VU). After a failure no new one starts.
 */
export async function inPool<T, R>(items: T[], size: number, fn: (item: T) => Promise<R>): Promise<R[]> {
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

/** A VU's init threw before the test started: k6 names that VU in its line's hint. */
export class VuInitError extends Error {
  constructor(
    readonly vuId: number,
    cause: unknown,
  ) {
    super((cause as Error).message, { cause });
  }
}

export type StopReason = 'signal' | 'abort' | 'thresholds';

export class RunController {
  private stopRequested: StopReason | undefined;
  private runs: ScenarioRun[] = [];
  private signalName: string | undefined;
  private announceStop!: (reason: StopReason) => void;
  /** Settles at the first stop: setup ends there, as k6 cancels its context. */
  readonly stopped = new Promise<StopReason>((resolve) => (this.announceStop = resolve));

  /**
   * First Ctrl-C (`signal` is Go's name for it: 'interrupt', 'terminated'), test.abort() or
   * abortOnFail: stop gracefully and still write the summary.
   */
  requestStop(reason: StopReason, signal?: string): void {
    if (this.stopRequested === undefined) {
      this.stopRequested = reason;
      this.signalName = signal;
      this.announceStop(reason);
    }
    this.runs.forEach((r) => r.stopNow());
  }

  get stopReason() {
    return this.stopRequested;
  }

  /** The signal that stopped the run, by Go's name, for k6's last line. */
  get signal(): string {
    return this.signalName ?? 'interrupt';
  }

  track(runs: ScenarioRun[]): void {
    this.runs = runs;
  }
}

/** What the scheduler's caller hooks into the run while the scenarios go. */
export interface RunWatchers {
  /** Every 2 s while the scenarios run: k6 evaluates the thresholds on that beat. */
  thresholds(): void;
  /** Starts the progress display over the scheduler's runs; stopped when they end. */
  display(scheduler: Scheduler): ProgressDisplay;
}

/** What the end of the test reads of the scenarios' run. */
export interface ScenariosOutcome {
  runs: readonly ScenarioRun[];
  /** The first test.fail() reason, when an iteration called it. */
  markedFailed: string | undefined;
  /** Stopped; its last block follows the summary. */
  display: ProgressDisplay;
}

/** The first test.fail() and test.abort() of the run: each is logged once. */
interface Verdicts {
  markedFailed: string | undefined;
  aborted: boolean;
}

export interface SchedulerDeps {
  config: TestConfig;
  vus: VuFactory;
  onSamples(samples: Sample[]): void;
  log: RunLog;
  controller: RunController;
}

export class Scheduler {
  private nextVuId = 1;
  private readonly pools = new Map<string, PooledVu[]>();
  private scenarioRuns: ScenarioRun[] = [];

  constructor(private readonly deps: SchedulerDeps) {}

  get runs(): readonly ScenarioRun[] {
    return this.scenarioRuns;
  }

  /** Initialised VUs: arrival-rate executors add VUs during the run, up to maxVUs. */
  allocatedVus(): number {
    return [...this.pools.values()].reduce((n, p) => n + p.length, 0);
  }

  /**
   * Every VU a scenario can need is initialised before the test starts, as in k6: its planned
   * VUs (an arrival-rate pool starts with preAllocatedVUs and grows during the run).
   */
  async initVus(): Promise<void> {
    for (const s of this.deps.config.scenarios) {
      const count = maxPlannedVus(executorOf(s).executionSteps(s));
      this.pools.set(
        s.name,
        await inPool(Array.from({ length: count }), INIT_CONCURRENCY, () => this.newPooled(s.tags)),
      );
    }
  }

  private async newPooled(scenarioTags: Record<string, string>): Promise<PooledVu> {
    const { config, vus } = this.deps;
    const vuId = this.nextVuId++;
    const vu = vus.make(vuId, { ...config.runTags, ...scenarioTags });
    try {
      await vu.init();
    } catch (error) {
      throw new VuInitError(vuId, error);
    }
    Atomics.add(vus.instanceStats, INSTANCE_STATS.vusInitialized, 1);
    return { vu, busy: false, iterationsInScenario: 0 };
  }

  /** The scenarios, each at its startTime with setup's data, until all end or the test stops. */
  async run(setupData: unknown, watchers: RunWatchers): Promise<ScenariosOutcome> {
    const { config, controller } = this.deps;
    const verdicts: Verdicts = { markedFailed: undefined, aborted: false };
    // Shared with the VU workers: looping VUs number their iterations themselves.
    const instanceCounter = new Int32Array(new SharedArrayBuffer(4));
    this.scenarioRuns = config.scenarios.map(
      (s) => new ScenarioRun(s, this.scenarioDeps(s, setupData, instanceCounter, verdicts)),
    );
    controller.track(this.scenarioRuns);

    const gauges = setInterval(() => this.emitGauges(), 1000);
    const thresholdTimer = setInterval(() => watchers.thresholds(), 2000);
    const display = watchers.display(this);
    await Promise.all(
      this.scenarioRuns.map((run) => run.runAtStartTime(() => controller.stopReason !== undefined)),
    );
    clearInterval(gauges);
    clearInterval(thresholdTimer);
    display.stop();
    return { runs: this.scenarioRuns, markedFailed: verdicts.markedFailed, display };
  }

  /** What one scenario's run gets from the scheduler: its pool, more VUs, the log and the samples. */
  private scenarioDeps(
    s: ScenarioConfig,
    setupData: unknown,
    instanceCounter: Int32Array,
    verdicts: Verdicts,
  ): ScenarioDeps {
    const { config, log } = this.deps;
    const fields = { executor: s.executor, scenario: s.name };
    return {
      vus: this.pools.get(s.name)!,
      growVu: async () => {
        const p = await this.newPooled(s.tags);
        this.pools.get(s.name)!.push(p);
        return p;
      },
      emitDropped: () =>
        this.deps.onSamples([
          {
            metric: 'dropped_iterations',
            type: 'counter',
            contains: 'default',
            value: 1,
            tags: { ...config.runTags, ...s.tags, scenario: s.name },
            time: Date.now(),
          },
        ]),
      warn: (m) => log('warn', m, fields),
      error: (m) => log('error', m, fields),
      setupData,
      testOptions: config.options,
      instanceCounter,
      report: (result) => this.report(result, fields, verdicts),
    };
  }

  /** An iteration's end as k6 logs it: its error, the first test.fail(), the first test.abort() (which stops the test). */
  private report(result: IterationResult, fields: Record<string, string>, verdicts: Verdicts): void {
    const log = this.deps.log;
    if (result.error)
      log('error', result.error, result.inPromise ? fields : { ...fields, source: 'stacktrace' });
    if (result.markFailed !== undefined && verdicts.markedFailed === undefined) {
      verdicts.markedFailed = result.markFailed;
      log('error', `test marked as failed: ${result.markFailed}`);
    }
    if (result.abort && !verdicts.aborted) {
      verdicts.aborted = true;
      log('error', result.abort.reason); // k6's line, location included
      this.deps.controller.requestStop('abort');
    }
  }

  /** k6's vus (active VUs) and vus_max (initialised VUs), once a second. */
  private emitGauges(): void {
    const active = this.scenarioRuns.reduce((n, r) => n + r.activeVus, 0);
    const allocated = this.allocatedVus();
    const t = Date.now();
    const tags = this.deps.config.runTags;
    this.deps.onSamples([
      { metric: 'vus', type: 'gauge', contains: 'default', value: active, tags: { ...tags }, time: t },
      { metric: 'vus_max', type: 'gauge', contains: 'default', value: allocated, tags: { ...tags }, time: t },
    ]);
  }
}
