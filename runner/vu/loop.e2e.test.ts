import assert from 'node:assert/strict';
import { SC_COMPLETED, SC_INTERRUPTED, SC_LEFT, SC_STARTED } from '../host/hosted-vu.js';
import { loopSpec, makeVu, settle, type Harness, vuSuite } from './test-support.js';

describe('runner/vu: a VU looping by itself (looping executors)', function () {
  this.timeout(20_000);
  const suite = vuSuite();
  async function vuFor(code: string, vuId = 1): Promise<Harness> {
    const h = await makeVu(code, { env: { BASE: suite.target.base }, vuId });
    suite.open.push(h);
    await h.vu.init();
    return h;
  }

  it('shares a shared-iterations budget between VUs: exactly N iterations, numbered once each', async () => {
    const code = `import exec from 'k6/execution';
      export default function () { console.log(exec.scenario.iterationInTest + ' ' + exec.vu.iterationInScenario); }`;
    const [a, b] = [await vuFor(code, 1), await vuFor(code, 2)];
    const s = loopSpec({ sharedBudget: true, progress: { totalIterations: 7 } });
    const counters = new Int32Array(s.scenarioCounters);
    Atomics.store(counters, SC_LEFT, 7);
    const [ra, rb] = await Promise.all([a.vu.loop(s, () => {}), b.vu.loop(s, () => {})]);
    assert.equal(ra.ran + rb.ran, 7);
    assert.equal(Atomics.load(counters, SC_COMPLETED), 7);
    assert.equal(Atomics.load(counters, SC_STARTED), 7);
    const inTest = [...a.logs, ...b.logs].map((l) => Number(l.message.split(' ')[0])).sort((x, y) => x - y);
    assert.deepEqual(inTest, [0, 1, 2, 3, 4, 5, 6]);
    // iterationInScenario counts per VU from the spec's start value.
    assert.deepEqual(
      a.logs.map((l) => Number(l.message.split(' ')[1])),
      Array.from({ length: ra.ran }, (_, i) => i),
    );
    await settle();
    assert.equal([...a.samples, ...b.samples].filter((x) => x.metric === 'iterations').length, 7);
  });

  it('stops at maxIterations (per-vu-iterations) and at endAt', async () => {
    const h = await vuFor(`export default function () {}`);
    assert.deepEqual(await h.vu.loop(loopSpec({ maxIterations: 3 }), () => {}), { ran: 3 });
    assert.deepEqual(await h.vu.loop(loopSpec({ endAt: Date.now() - 1 }), () => {}), { ran: 0 });
  });

  it('stopLoop() ends the loop after the running iteration, which still counts', async () => {
    const h = await vuFor(`import { sleep } from 'k6'; export default function () { sleep(0.05); }`);
    const s = loopSpec();
    const p = h.vu.loop(s, () => {});
    setTimeout(() => h.vu.stopLoop(), 200);
    const { ran } = await p;
    assert.ok(ran >= 2 && ran < 20, `ran ${ran}`);
    const counters = new Int32Array(s.scenarioCounters);
    assert.equal(Atomics.load(counters, SC_COMPLETED), ran);
    assert.equal(Atomics.load(counters, SC_INTERRUPTED), 0);
  });

  it('an interrupt ends the loop; the cut iteration is not counted', async () => {
    const h = await vuFor(`import { sleep } from 'k6'; export default function () { sleep(30); }`);
    const s = loopSpec();
    const p = h.vu.loop(s, () => {});
    setTimeout(() => {
      h.vu.stopLoop();
      h.vu.interrupt();
    }, 150);
    assert.deepEqual(await p, { ran: 1 });
    const counters = new Int32Array(s.scenarioCounters);
    assert.equal(Atomics.load(counters, SC_INTERRUPTED), 1);
    await settle();
    assert.equal(h.samples.filter((x) => x.metric === 'iterations').length, 0);
  });

  it('reports errors per iteration and stops at exec.test.abort()', async () => {
    const h = await vuFor(`import exec from 'k6/execution';
      export default function () { if (exec.vu.iterationInScenario === 2) exec.test.abort('enough'); throw new Error('boom'); }`);
    const results: { error?: string; abort?: { reason: string } }[] = [];
    const { ran } = await h.vu.loop(loopSpec(), (r) => results.push(r));
    assert.equal(ran, 3);
    assert.equal(results.length, 3);
    assert.match(results[0]!.error!, /^Error: boom/);
    assert.match(results[2]!.abort!.reason, /^test aborted: enough/);
  });

  it('empties the cookie jar at the start of every looped iteration', async () => {
    const h = await vuFor(`import http from 'k6/http';
      export default function () {
        const before = http.cookieJar().cookiesForURL(__ENV.BASE + '/').sid;
        console.log(String(before));
        http.get(__ENV.BASE + '/cookie');
      }`);
    await h.vu.loop(loopSpec({ maxIterations: 3 }), () => {});
    await settle();
    assert.deepEqual(
      h.logs.map((l) => l.message),
      ['undefined', 'undefined', 'undefined'],
    );
  });

  it("drops the main thread's side of cookie jars the script can no longer reach; a jar kept in a global lives on", async function () {
    this.timeout(300_000);
    // Every iteration makes a jar and stores a cookie in it (the main thread then holds that jar);
    // the global jar's cookie, set once, must still be sent after thousands of collected jars.
    const h = await vuFor(`import http from 'k6/http';
      const kept = new http.CookieJar();
      let n = 0;
      export default function () {
        if (n === 0) kept.set(__ENV.BASE + '/', 'kept', 'yes');
        const jar = new http.CookieJar();
        jar.set(__ENV.BASE + '/', 'n', String(n));
        if (++n % 500 === 0) {
          const sent = http.get(__ENV.BASE + '/echo', { jar: kept }).json().headers.cookie;
          console.log(n + ' ' + sent);
        }
      }`);
    // V8 reports collected objects only after a full collection, which this VU's small heap may not
    // reach in tens of thousands of such iterations: the VU asks for one every 1,000 jars it makes
    // (worker.ts COLLECT_AFTER), so at most about that many are held at any time. Bounded by count.
    const { ran } = await h.vu.loop(
      loopSpec({ maxIterations: 20_000, endAt: Date.now() + 240_000 }),
      () => {},
    );
    assert.equal(ran, 20_000);
    await settle();
    const held = h.vu.scriptJarCount();
    assert.ok(held <= 1_001 + 1, `${held} of ${ran + 1} jars still held`);
    assert.ok(h.logs.length >= 2, JSON.stringify(h.logs));
    for (const line of h.logs) assert.match(line.message, /^\d+ kept=yes$/);
  });
});
