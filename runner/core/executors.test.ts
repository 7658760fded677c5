// The executors with real VUs (worker threads): iteration counts, the end of a scenario,
// gracefulRampDown and stopNow, on the looping path the VUs run by themselves.
import assert from 'node:assert/strict';
import type { IterationResult } from '../vu/index.js';
import { makeVu, settle, type Harness } from '../vu/test-support.js';
import { ScenarioRun, type PooledVu } from './executors.js';
import type { ScenarioConfig } from './options.js';

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

describe('runner/core/executors with real VUs', function () {
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
    });
    holder.r = r;
    const started = Date.now();
    await r.run();
    assert.ok(Date.now() - started < 5000, 'the 20 s scenario was not stopped');
    assert.equal(reported.filter((x) => x.abort).length, 1);
    assert.match(reported.find((x) => x.abort)!.abort!.reason, /^test aborted: stop/);
  });
});
