// Runs one scenario with its executor's timing (k6 lib/executor): looping executors keep their VUs
// iterating, arrival-rate executors start iterations on a clock. Every executor stops starting
// iterations at its end, gives running ones gracefulStop, then interrupts them.
import type { Vu } from '../vu/index.js';
import type { ScenarioConfig } from './options.js';
import { arrivalsBy, rampingVuChanges } from './schedule.js';
import { scenarioDurationMs } from './options.js';

export interface PooledVu {
  vu: Vu;
  busy: boolean;
  /** Increments per iteration; lets a delayed interrupt hit only the iteration it was meant for. */
  iterationSerial: number;
  iterationsInScenario: number;
}

export interface ScenarioDeps {
  vus: PooledVu[];
  /** arrival-rate: initialise one more VU (up to maxVUs). */
  growVu(): Promise<PooledVu>;
  /** Runs one iteration; resolves true when it completed, false when interrupted. */
  runIteration(p: PooledVu, iterationInTest: number, run: ScenarioRun): Promise<boolean>;
  emitDropped(): void;
  warn(message: string): void;
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, Math.max(0, ms)));

export class ScenarioRun {
  completed = 0;
  interrupted = 0;
  startedAt = 0;
  finished = false;
  /** Target of ramping-vus; the VU count in use otherwise. */
  private target = 0;
  private stopping = false;
  private iterationsStarted = 0;
  private readonly running = new Set<Promise<void>>();
  private wake: (() => void)[] = [];

  constructor(
    readonly config: ScenarioConfig,
    private readonly deps: ScenarioDeps,
  ) {}

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
    if (c.executor === 'shared-iterations') return Math.min(1, this.completed / c.iterations);
    if (c.executor === 'per-vu-iterations') return Math.min(1, this.completed / (c.iterations * c.vus));
    return Math.min(1, (now - this.startedAt) / scenarioDurationMs(c));
  }

  /** Stop at once (abort, Ctrl-C, abortOnFail): no new iterations, interrupt running ones. */
  stopNow(): void {
    this.stopping = true;
    for (const p of this.deps.vus) if (p.busy) p.vu.interrupt();
    this.notify();
  }

  private notify(): void {
    const waiting = this.wake;
    this.wake = [];
    waiting.forEach((w) => w());
  }

  private changed(): Promise<void> {
    return new Promise((resolve) => this.wake.push(resolve));
  }

  private iterate(p: PooledVu): Promise<void> {
    p.busy = true;
    p.iterationSerial += 1;
    const iterationInTest = this.iterationsStarted++;
    const done = this.deps
      .runIteration(p, iterationInTest, this)
      .then((completed) => {
        if (completed) this.completed += 1;
        else this.interrupted += 1;
      })
      .finally(() => {
        p.busy = false;
        p.iterationsInScenario += 1;
        this.running.delete(done);
      });
    this.running.add(done);
    return done;
  }

  private async loop(p: PooledVu, canStart: () => boolean): Promise<void> {
    while (!this.stopping && canStart()) await this.iterate(p);
  }

  /** After the regular duration: wait up to gracefulStop, then interrupt what still runs. */
  private async gracefulEnd(work: Promise<unknown>): Promise<void> {
    this.stopping = true;
    this.notify();
    const timer = sleep(this.config.gracefulStopMs).then(() => 'timeout' as const);
    if ((await Promise.race([work.then(() => 'done' as const), timer])) === 'timeout') {
      for (const p of this.deps.vus) if (p.busy) p.vu.interrupt();
    }
    await work;
    await Promise.all([...this.running]);
  }

  async run(): Promise<void> {
    this.startedAt = Date.now();
    const c = this.config;
    const end = this.startedAt + scenarioDurationMs(c);
    const untilEnd = () => Date.now() < end;
    const regular = (loops: Promise<unknown>) => Promise.race([loops, sleep(end - Date.now())]);
    switch (c.executor) {
      case 'constant-vus': {
        this.target = c.vus;
        const loops = Promise.all(this.deps.vus.map((p) => this.loop(p, untilEnd)));
        await regular(loops);
        await this.gracefulEnd(loops);
        break;
      }
      case 'shared-iterations': {
        let left = c.iterations;
        this.target = c.vus;
        const take = () => untilEnd() && left-- > 0;
        const loops = Promise.all(this.deps.vus.map((p) => this.loop(p, take)));
        await regular(loops);
        await this.gracefulEnd(loops);
        break;
      }
      case 'per-vu-iterations': {
        this.target = c.vus;
        const loops = Promise.all(
          this.deps.vus.map((p) => {
            let left = c.iterations;
            return this.loop(p, () => untilEnd() && left-- > 0);
          }),
        );
        await regular(loops);
        await this.gracefulEnd(loops);
        break;
      }
      case 'ramping-vus':
        await this.runRampingVus(end);
        break;
      case 'constant-arrival-rate':
      case 'ramping-arrival-rate':
        await this.runArrivalRate(end);
        break;
    }
    this.finished = true;
  }

  private async runRampingVus(end: number): Promise<void> {
    const c = this.config;
    const changes = rampingVuChanges(c.startVUs, c.stages);
    const timers = changes.map((change) =>
      setTimeout(() => this.setTarget(change.count), Math.max(0, this.startedAt + change.atMs - Date.now())),
    );
    const loops = Promise.all(
      this.deps.vus.map(async (p, index) => {
        const u = index + 1;
        while (!this.stopping) {
          if (u > this.target) {
            await this.changed();
            continue;
          }
          await this.iterate(p);
        }
      }),
    );
    await sleep(end - Date.now());
    timers.forEach(clearTimeout);
    await this.gracefulEnd(loops);
  }

  /** Ramping down: VUs above the target finish their iteration within gracefulRampDown, else interrupted. */
  private setTarget(count: number): void {
    const previous = this.target;
    this.target = count;
    if (count < previous) {
      this.deps.vus.slice(count, previous).forEach((p) => {
        if (!p.busy) return;
        const serial = p.iterationSerial;
        setTimeout(() => {
          if (p.busy && p.iterationSerial === serial && this.deps.vus.indexOf(p) >= this.target)
            p.vu.interrupt();
        }, this.config.gracefulRampDownMs).unref();
      });
    }
    this.notify();
  }

  private async runArrivalRate(end: number): Promise<void> {
    const c = this.config;
    let started = 0;
    let growing = 0;
    let warned = false;
    const tick = () => {
      if (this.stopping) return;
      const due =
        Date.now() < end ? arrivalsBy(c, Date.now() - this.startedAt) : arrivalsBy(c, end - this.startedAt);
      for (; started < due; started++) {
        const free = this.deps.vus.find((p) => !p.busy);
        if (free) {
          void this.iterate(free);
        } else if (this.deps.vus.length + growing < c.maxVUs) {
          growing += 1;
          const grown = this.deps.growVu().then((p) => {
            growing -= 1;
            if (!this.stopping) return this.iterate(p);
          });
          this.running.add(grown.then(() => undefined));
        } else {
          if (!warned) {
            warned = true;
            this.deps.warn(`Insufficient VUs, reached ${c.maxVUs} active VUs and cannot initialize more`);
          }
          this.deps.emitDropped();
        }
      }
    };
    const ticker = setInterval(tick, 2);
    tick();
    await sleep(end - Date.now());
    tick();
    clearInterval(ticker);
    await this.gracefulEnd(Promise.all([...this.running]));
  }
}
