// The executors with real VUs (worker threads): iteration counts, the end of a scenario,
// gracefulRampDown and stopNow, on the looping path the VUs run by themselves.
import assert from 'node:assert/strict';
import type { IterationResult } from '../host/hosted-vu.js';
import { makeVu, settle, type Harness } from '../vu/test-support.js';
import { ScenarioRun, type PooledVu } from './scenario-run.js';
import type { ScenarioConfig } from '../options/options.js';

function scenario(over: Partial<ScenarioConfig>): ScenarioConfig {
  return {
    name: 'exec',
    executor: 'constant-vus',
    exec: 'default',
    startTimeMs: 0,
    gracefulStopMs: 30_000,
    env: {},
    tags: {},
    vus: 1,
    iterations: 1,
    maxDurationMs: 10_000,
    durationMs: 1000,
    startVUs: 1,
    stages: [],
    gracefulRampDownMs: 30_000,
    rate: 0,
    startRate: 0,
    timeUnitMs: 1000,
    preAllocatedVUs: 0,
    maxVUs: 0,
    execExplicit: false,
    ...over,
  };
}

describe('runner/run/scenario-run with real VUs', function () {
  this.timeout(30_000);
  const open: Harness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.vu.close();
  });

  async function pool(code: string, count: number): Promise<{ vus: PooledVu[]; harnesses: Harness[] }> {
    const harnesses: Harness[] = [];
    for (let i = 1; i <= count; i++) {
      const h = await makeVu(code, { vuId: i });
      open.push(h);
      await h.vu.init();
      harnesses.push(h);
    }
    return { vus: harnesses.map((h) => ({ vu: h.vu, busy: false, iterationsInScenario: 0 })), harnesses };
  }

  function run(config: ScenarioConfig, vus: PooledVu[], reported: IterationResult[] = []): ScenarioRun {
    return new ScenarioRun(config, {
      vus,
      growVu: () => Promise.reject(new Error('not an arrival-rate test')),
      setupData: { from: 'setup' },
      testOptions: {},
      instanceCounter: new Int32Array(new SharedArrayBuffer(4)),
      report: (r) => reported.push(r),
      emitDropped: () => {},
      warn: () => {},
      error: () => {},
    });
  }

  it('shared-iterations runs exactly `iterations` across the VUs and hands them setup data', async () => {
    const { vus, harnesses } = await pool(
      `export default function (data) { if (data.from !== 'setup') throw new Error('no setup data'); }`,
      3,
    );
    const reported: IterationResult[] = [];
    const r = run(scenario({ executor: 'shared-iterations', vus: 3, iterations: 10 }), vus, reported);
    await r.run();
    await settle();
    assert.equal(r.completed, 10);
    assert.equal(r.interrupted, 0);
    assert.deepEqual(reported, []);
    const counted = harnesses.flatMap((h) => h.samples).filter((s) => s.metric === 'iterations');
    assert.equal(counted.length, 10);
    assert.equal(
      vus.reduce((n, p) => n + p.iterationsInScenario, 0),
      10,
    );
  });

  it('per-vu-iterations runs `iterations` on every VU', async () => {
    const { vus } = await pool(`export default function () {}`, 2);
    const r = run(scenario({ executor: 'per-vu-iterations', vus: 2, iterations: 4 }), vus);
    await r.run();
    assert.equal(r.completed, 8);
    assert.deepEqual(
      vus.map((p) => p.iterationsInScenario),
      [4, 4],
    );
  });

  it('constant-vus starts no iteration after its duration and lets the running ones finish', async () => {
    const { vus, harnesses } = await pool(
      `import { sleep } from 'k6'; export default function () { console.log(String(Date.now())); sleep(0.1); }`,
      2,
    );
    const r = run(scenario({ executor: 'constant-vus', vus: 2, durationMs: 500 }), vus);
    await r.run();
    const end = r.startedAt + 500;
    const starts = harnesses.flatMap((h) => h.logs.map((l) => Number(l.message)));
    assert.ok(starts.length >= 4, `only ${starts.length} iterations`);
    assert.ok(
      starts.every((t) => t < end),
      'an iteration started after the end',
    );
    assert.equal(r.completed, starts.length, 'all finished within gracefulStop');
  });

  it('ramping-vus interrupts a ramped-down VU after gracefulRampDown; it is not counted', async () => {
    const { vus } = await pool(`import { sleep } from 'k6'; export default function () { sleep(10); }`, 2);
    const r = run(
      scenario({
        executor: 'ramping-vus',
        startVUs: 2,
        stages: [
          { durationMs: 200, target: 0 },
          { durationMs: 1500, target: 0 },
        ],
        gracefulRampDownMs: 200,
      }),
      vus,
    );
    const started = Date.now();
    await r.run();
    // Both VUs ramp down by 200 ms and are cut 200 ms later; the stages end at 1.7 s.
    assert.equal(r.interrupted, 2);
    assert.equal(r.completed, 0);
    assert.ok(Date.now() - started < 5000, 'waited for the sleeps instead of interrupting');
  });

  it('ramping-vus ends at once on stopNow() instead of waiting out its stages (Ctrl-C)', async () => {
    const { vus } = await pool(`import { sleep } from 'k6'; export default function () { sleep(0.05); }`, 2);
    const r = run(
      scenario({
        executor: 'ramping-vus',
        startVUs: 0,
        stages: [
          { durationMs: 500, target: 2 },
          { durationMs: 20_000, target: 2 },
        ],
      }),
      vus,
    );
    setTimeout(() => r.stopNow(), 1000);
    const started = Date.now();
    await r.run();
    assert.ok(Date.now() - started < 5000, 'the 20 s stages were waited out after the stop');
    assert.ok(r.completed > 0, 'iterations ran before the stop');
  });

  it('constant-arrival-rate ends at once on stopNow() instead of waiting out its duration (Ctrl-C)', async () => {
    const { vus } = await pool(`export default function () {}`, 1);
    const r = run(
      scenario({
        executor: 'constant-arrival-rate',
        rate: 10,
        timeUnitMs: 1000,
        durationMs: 20_000,
        preAllocatedVUs: 1,
        maxVUs: 1,
      }),
      vus,
    );
    setTimeout(() => r.stopNow(), 1000);
    const started = Date.now();
    await r.run();
    assert.ok(Date.now() - started < 5000, 'the 20 s duration was waited out after the stop');
    assert.ok(r.completed > 0, 'iterations ran before the stop');
  });

  it('stopNow() stops the looping VUs at once and reports test.abort()', async () => {
    const { vus } = await pool(
      `import exec from 'k6/execution'; import { sleep } from 'k6';
       export default function () { if (exec.vu.idInTest === 1 && exec.vu.iterationInScenario === 1) exec.test.abort('stop'); sleep(0.05); }`,
      2,
    );
    const reported: IterationResult[] = [];
    const holder: { r?: ScenarioRun } = {};
    const r = new ScenarioRun(scenario({ executor: 'constant-vus', vus: 2, durationMs: 20_000 }), {
      vus,
      growVu: () => Promise.reject(new Error('no')),
      setupData: undefined,
      testOptions: {},
      instanceCounter: new Int32Array(new SharedArrayBuffer(4)),
      report: (res) => {
        reported.push(res);
        if (res.abort) holder.r!.stopNow();
      },
      emitDropped: () => {},
      warn: () => {},
      error: () => {},
    });
    holder.r = r;
    const started = Date.now();
    await r.run();
    assert.ok(Date.now() - started < 5000, 'the 20 s scenario was not stopped');
    assert.equal(reported.filter((x) => x.abort).length, 1);
    assert.match(reported.find((x) => x.abort)!.abort!.reason, /^test aborted: stop/);
  });

  describe('arrival-rate VU allocation (k6 lib/executor/*_arrival_rate.go)', () => {
    interface Observed {
      dropped: number[];
      warnings: string[];
      errors: string[];
      growCalls: number[];
      maxInitialising: number;
    }

    /**
     * An arrival-rate run whose growVu() hands out VUs from `spare` (initialised beforehand, so the
     * test controls how long an initialisation takes: `initMs`) or, once they run out, initialises
     * real ones with `code`.
     */
    function arrivalRun(
      config: ScenarioConfig,
      vus: PooledVu[],
      spare: PooledVu[],
      initMs: number,
      code = `export default function () {}`,
    ): { r: ScenarioRun; seen: Observed } {
      const seen: Observed = { dropped: [], warnings: [], errors: [], growCalls: [], maxInitialising: 0 };
      let initialising = 0;
      const r = new ScenarioRun(config, {
        vus,
        growVu: async () => {
          seen.growCalls.push(Date.now());
          initialising += 1;
          seen.maxInitialising = Math.max(seen.maxInitialising, initialising);
          await new Promise((resolve) => setTimeout(resolve, initMs));
          const p = spare.shift() ?? (await pool(code, 1)).vus[0]!;
          initialising -= 1;
          vus.push(p);
          return p;
        },
        setupData: undefined,
        testOptions: {},
        instanceCounter: new Int32Array(new SharedArrayBuffer(4)),
        report: () => {},
        emitDropped: () => seen.dropped.push(Date.now()),
        warn: (m) => seen.warnings.push(m),
        error: (m) => seen.errors.push(m),
      });
      return { r, seen };
    }

    /** Each VU logs the start of its iterations: `Date.now()`. */
    const STARTS_AND_SLEEPS = (seconds: number) =>
      `import { sleep } from 'k6'; export default function () { console.log(String(Date.now())); sleep(${seconds}); }`;

    it('drops an iteration at once when no VU is free instead of delaying it until a new VU is ready', async () => {
      const { vus, harnesses } = await pool(STARTS_AND_SLEEPS(0.25), 2);
      const spare = vus.splice(1);
      // 10/s for 1 s: arrivals every 100 ms; a new VU takes 160 ms to be ready.
      const { r, seen } = arrivalRun(
        scenario({
          executor: 'constant-arrival-rate',
          rate: 10,
          timeUnitMs: 1000,
          durationMs: 1000,
          preAllocatedVUs: 1,
          maxVUs: 2,
        }),
        vus,
        spare,
        160,
      );
      await r.run();
      await settle();
      const starts = harnesses.flatMap((h) => h.logs.map((l) => Number(l.message) - r.startedAt));
      assert.equal(
        starts.length + seen.dropped.length,
        10,
        `${starts.length} started, ${seen.dropped.length} dropped`,
      );
      assert.ok(seen.dropped.length >= 2, `only ${seen.dropped.length} dropped`);
      // Arrivals are at 0, 100, 200... ms. An iteration made to wait for the new VU would start
      // 160 ms after its arrival, i.e. 60 ms or more past an arrival time.
      for (const t of starts)
        assert.ok(t % 100 < 50, `an iteration started at ${t} ms, ${t % 100} ms after its arrival`);
      for (const t of seen.dropped.map((d) => d - r.startedAt))
        assert.ok(t % 100 < 50, `an iteration was dropped at ${t} ms, not at its arrival`);
      assert.equal(seen.growCalls.length, 1, 'one VU between preAllocatedVUs and maxVUs');
      assert.equal(vus.length, 2);
    });

    it('initialises at most one VU at a time, each after a dropped iteration', async () => {
      const { vus } = await pool(STARTS_AND_SLEEPS(0.5), 4);
      const spare = vus.splice(1);
      const { r, seen } = arrivalRun(
        scenario({
          executor: 'ramping-arrival-rate',
          startRate: 20,
          timeUnitMs: 1000,
          stages: [{ durationMs: 1000, target: 20 }],
          durationMs: 1000,
          preAllocatedVUs: 1,
          maxVUs: 4,
        }),
        vus,
        spare,
        120,
      );
      await r.run();
      assert.equal(seen.maxInitialising, 1);
      assert.equal(seen.growCalls.length, 3, 'grew to maxVUs');
      // Each request for a VU follows the end of the previous initialisation (the 120 ms it takes).
      for (let i = 1; i < seen.growCalls.length; i++)
        assert.ok(
          seen.growCalls[i]! - seen.growCalls[i - 1]! >= 110,
          `requests ${seen.growCalls.join(', ')}`,
        );
      assert.ok(
        seen.dropped[0]! <= seen.growCalls[0]!,
        'a VU was requested before any iteration was dropped',
      );
      assert.equal(vus.length, 4);
      assert.deepEqual(seen.errors, []);
    });

    it('warns once when maxVUs is reached and keeps dropping', async () => {
      const { vus } = await pool(STARTS_AND_SLEEPS(0.3), 2);
      const spare = vus.splice(1);
      const { r, seen } = arrivalRun(
        scenario({
          executor: 'constant-arrival-rate',
          rate: 20,
          timeUnitMs: 1000,
          durationMs: 1000,
          preAllocatedVUs: 1,
          maxVUs: 2,
        }),
        vus,
        spare,
        50,
      );
      await r.run();
      assert.deepEqual(seen.warnings, ['Insufficient VUs, reached 2 active VUs and cannot initialize more']);
      assert.ok(seen.dropped.length >= 10, `only ${seen.dropped.length} dropped`);
      assert.equal(vus.length, 2);
    });

    it('a slow script at a rate above its VUs gives dropped_iterations and never more than maxVUs', async () => {
      const { vus } = await pool(STARTS_AND_SLEEPS(0.5), 1);
      // Real VU initialisations (worker threads) once `spare` is empty.
      const { r, seen } = arrivalRun(
        scenario({
          executor: 'constant-arrival-rate',
          rate: 20,
          timeUnitMs: 1000,
          durationMs: 1500,
          preAllocatedVUs: 1,
          maxVUs: 3,
        }),
        vus,
        [],
        0,
        STARTS_AND_SLEEPS(0.5),
      );
      await r.run();
      assert.ok(vus.length <= 3, `${vus.length} VUs`);
      assert.ok(seen.growCalls.length <= 2);
      assert.ok(seen.dropped.length >= 15, `only ${seen.dropped.length} dropped`);
      assert.equal(r.completed + seen.dropped.length, 30, `${r.completed} completed`);
      assert.equal(r.interrupted, 0);
    });
  });
});
