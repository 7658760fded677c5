// One scenario's run: the primitives its executor's run loop (runner/executors/) drives through the
// ScenarioDriver interface, as k6's executors use their VU handles and contexts: start an iteration
// on a VU, let a VU loop, halt, the graceful end, the wait for the regular duration or a stop, the
// iteration counters and the progress bar. Which VU does what and when is the executor's.
//
// A looping VU gets one loop command: its worker runs the iterations itself and checks the end
// time, its budget and a GO flag in shared memory before each one, so an iteration costs no
// command/reply messages. iterate() starts one iteration with one command (arrival-rate).
import {
  SC_COMPLETED,
  SC_INTERRUPTED,
  SC_LEFT,
  SC_STARTED,
  SCENARIO_SLOTS,
  type IterationResult,
  type LoopSpec,
  type Vu,
} from '../host/hosted-vu.js';
import {
  executorOf,
  type LoopBudget,
  type ScenarioConfig,
  type ScenarioDriver,
  type ScenarioVu,
} from '../executors/index.js';
import { fixedDuration, scenarioProgress, type Bar, type ScenarioSnapshot } from './progress.js';
import { scenarioDurationMs } from '../options/options.js';
import { boundPhase } from './bound-phase.js';

export interface PooledVu extends ScenarioVu {
  vu: Vu;
  /** In an iteration (arrival-rate) or in a loop (looping executors): an active VU. */
  busy: boolean;
  iterationsInScenario: number;
}

export interface ScenarioDeps {
  vus: PooledVu[];
  /** arrival-rate: initialise one more VU and add it to `vus`, where it is free for the next iteration. */
  growVu(): Promise<PooledVu>;
  /** setup()'s data and the test options every iteration receives. */
  setupData: unknown;
  testOptions: Record<string, unknown>;
  /** One Int32 slot over a SharedArrayBuffer: the next iterationInInstance, shared by all scenarios. */
  instanceCounter: Int32Array;
  /** An iteration ended: log its error, note test.fail, stop the test on exec.test.abort. */
  report(result: IterationResult): void;
  emitDropped(): void;
  warn(message: string): void;
  error(message: string): void;
}

/** What the worker's loop reports as exec.scenario.progress: its share of iterations, or of time. */
function loopProgress(c: ScenarioConfig): LoopSpec['progress'] {
  const total = executorOf(c).totalIterations(c);
  return total !== undefined ? { totalIterations: total } : { durationMs: scenarioDurationMs(c) };
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export class ScenarioRun implements ScenarioDriver {
  /** When the test started waiting for this scenario's startTime (0 until then). */
  scheduledAt = 0;
  startedAt = 0;
  finished = false;
  /** The progress bar as k6 freezes it: at the end of the regular duration, and at the end. */
  private frozen: { status: '↓' | '✗' | '✓'; progress: number; right: string[] } | undefined;
  /** Stopped by the test (Ctrl-C, abort, abortOnFail), not by its own schedule. */
  private stoppedByTest = false;
  /** The end of the regular duration, once its timer fired (0 before, or when work ended first). */
  private reachedEnd = 0;
  private halted = false;
  /** SC_* slots, shared with the looping VUs' workers. */
  private readonly counters = new Int32Array(new SharedArrayBuffer(4 * SCENARIO_SLOTS));
  private readonly running = new Set<Promise<void>>();
  private wake: (() => void)[] = [];
  /** Waiters for the end of the regular duration, released early by a stop. */
  private onStop: (() => void)[] = [];

  constructor(
    readonly config: ScenarioConfig,
    private readonly deps: ScenarioDeps,
  ) {}

  get completed(): number {
    return Atomics.load(this.counters, SC_COMPLETED);
  }

  get interrupted(): number {
    return Atomics.load(this.counters, SC_INTERRUPTED);
  }

  get activeVus(): number {
    return this.deps.vus.filter((p) => p.busy).length;
  }

  get allocatedVus(): number {
    return this.deps.vus.length;
  }

  progress(now = Date.now()): number {
    if (this.finished) return 1;
    if (!this.startedAt) return 0;
    const c = this.config;
    const total = executorOf(c).totalIterations(c);
    if (total !== undefined) return Math.min(1, this.completed / total);
    return Math.min(1, (now - this.startedAt) / scenarioDurationMs(c));
  }

  snapshot(): ScenarioSnapshot {
    return {
      config: this.config,
      startedAt: this.startedAt,
      runningVus: this.activeVus,
      allocatedVus: this.allocatedVus,
      iterationsDone: this.completed + this.interrupted,
    };
  }

  /** This scenario's line of the progress display (k6's executor progress bar). */
  bar(now = Date.now()): Bar {
    const c = this.config;
    if (this.frozen) return { left: c.name, ...this.frozen };
    if (!this.startedAt) {
      if (c.startTimeMs > 0 && this.scheduledAt && !this.finished) {
        const left = Math.max(0, this.scheduledAt + c.startTimeMs - now);
        return {
          left: c.name,
          status: '•',
          progress: 0,
          right: ['waiting', fixedDuration(left, c.startTimeMs)],
        };
      }
      return { left: c.name, status: ' ', progress: 0, right: [] };
    }
    return { left: c.name, status: ' ', ...scenarioProgress(this.snapshot(), now) };
  }

  /**
   * Now, for a bar frozen at or after the regular duration's end: a timer may fire a millisecond
   * before Date.now() reaches its time, and k6 reads its clock after its end.
   */
  private clockPastEnd(): number {
    return Math.max(Date.now(), this.reachedEnd + 1);
  }

  /** Waits for startTime, then runs, unless the test stops first (`stopped()`). */
  async runAtStartTime(stopped: () => boolean): Promise<void> {
    this.scheduledAt = Date.now();
    await sleep(this.config.startTimeMs);
    if (!stopped()) await this.run();
    else this.finished = true;
  }

  /** Stop at once (abort, Ctrl-C, abortOnFail): no new iterations, interrupt running ones. */
  stopNow(): void {
    this.stoppedByTest = true;
    this.halt();
    for (const p of this.deps.vus) if (p.busy) p.vu.interrupt();
  }

  get stopping(): boolean {
    return this.halted;
  }

  get vus(): readonly PooledVu[] {
    return this.deps.vus;
  }

  /** No new iterations: here, and in every looping VU. */
  private halt(): void {
    this.halted = true;
    for (const p of this.deps.vus) p.vu.stopLoop();
    this.notify();
    this.onStop.splice(0).forEach((release) => release());
  }

  /**
   * Resolves at `end`, or at once when the scenario is stopped (Ctrl-C, SIGTERM, test.abort()):
   * every executor waits for its regular duration through this, so none waits it out after a stop.
   */
  untilEndOrStop(end: number): Promise<void> {
    if (this.halted) return Promise.resolve();
    return new Promise((resolve) => {
      const release = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(
        () => {
          this.reachedEnd = end;
          release();
        },
        Math.max(0, end - Date.now()),
      );
      this.onStop.push(release);
    });
  }

  notify(): void {
    const waiting = this.wake;
    this.wake = [];
    waiting.forEach((w) => w());
  }

  changed(): Promise<void> {
    return new Promise((resolve) => this.wake.push(resolve));
  }

  iterate(p: PooledVu): Promise<void> {
    p.busy = true;
    const c = this.config;
    const done = p.vu
      .iterate(c.exec, this.deps.setupData, {
        scenario: {
          name: c.name,
          executor: c.executor,
          startTime: this.startedAt,
          iterationInTest: Atomics.add(this.counters, SC_STARTED, 1),
          progress: this.progress(),
          env: c.env,
          tags: c.tags,
          exec: c.exec,
        },
        iterationInScenario: p.iterationsInScenario,
        iterationInInstance: Atomics.add(this.deps.instanceCounter, 0, 1),
        testOptions: this.deps.testOptions,
      })
      .then((result) => {
        this.deps.report(result);
        Atomics.add(this.counters, result.completed ? SC_COMPLETED : SC_INTERRUPTED, 1);
      })
      .finally(() => {
        p.busy = false;
        p.iterationsInScenario += 1;
        this.running.delete(done);
      });
    this.running.add(done);
    return done;
  }

  async loop(p: PooledVu, endAt: number, budget: LoopBudget = {}): Promise<void> {
    if (this.halted) return;
    const c = this.config;
    const spec: LoopSpec = {
      fnName: c.exec,
      data: this.deps.setupData,
      scenario: {
        name: c.name,
        executor: c.executor,
        startTime: this.startedAt,
        env: c.env,
        tags: c.tags,
        exec: c.exec,
      },
      testOptions: this.deps.testOptions,
      iterationInScenario: p.iterationsInScenario,
      endAt,
      maxIterations: budget.maxIterations ?? Infinity,
      sharedBudget: budget.shared ?? false,
      progress: loopProgress(c),
      scenarioCounters: this.counters.buffer as SharedArrayBuffer,
      instanceCounter: this.deps.instanceCounter.buffer as SharedArrayBuffer,
    };
    p.busy = true;
    const done = p.vu
      .loop(spec, (result) => this.deps.report(result))
      .then(({ ran }) => {
        p.iterationsInScenario += ran;
      })
      .finally(() => {
        p.busy = false;
        this.running.delete(done);
      });
    this.running.add(done);
    return done;
  }

  async gracefulEnd(work: Promise<unknown>): Promise<void> {
    if (!this.stoppedByTest && this.config.gracefulStopMs > 0) {
      this.frozen = { status: '↓', ...scenarioProgress(this.snapshot(), this.clockPastEnd()) };
    }
    this.halt();
    // boundPhase clears its timer when the work ends first: a grace timer left running held the
    // process for up to gracefulStop after the run had ended.
    if ((await boundPhase(work, this.config.gracefulStopMs)).ended === 'timeout') {
      for (const p of this.deps.vus) if (p.busy) p.vu.interrupt();
    }
    await work;
    await Promise.all([...this.running]);
  }

  loopEvery(end: number, budget?: LoopBudget): Promise<unknown> {
    return Promise.all(this.deps.vus.map((p) => this.loop(p, end, budget)));
  }

  shareIterations(count: number): void {
    Atomics.store(this.counters, SC_LEFT, count);
  }

  async regularThenGraceful(loops: Promise<unknown>, end: number): Promise<void> {
    await Promise.race([loops, this.untilEndOrStop(end)]);
    await this.gracefulEnd(loops);
  }

  inFlight(): Promise<unknown> {
    return Promise.all([...this.running]);
  }

  async growVu(): Promise<void> {
    await this.deps.growVu();
  }

  dropped(): void {
    this.deps.emitDropped();
  }

  warn(message: string): void {
    this.deps.warn(message);
  }

  error(message: string): void {
    this.deps.error(message);
  }

  stopLoop(p: PooledVu): void {
    p.vu.stopLoop();
  }

  loopSerial(p: PooledVu): number {
    return p.vu.loopSerial();
  }

  interrupt(p: PooledVu): void {
    p.vu.interrupt();
  }

  async run(): Promise<void> {
    this.startedAt = Date.now();
    const c = this.config;
    const end = this.startedAt + scenarioDurationMs(c);
    await executorOf(c).run(this, end);
    this.finished = true;
    const last = scenarioProgress(this.snapshot(), this.clockPastEnd());
    this.frozen = { status: !this.stoppedByTest && last.progress >= 1 ? '✓' : '✗', ...last };
  }
}
