import assert from 'node:assert/strict';
import { ctx, makeVu, type Harness } from '../../vu/test-support.js';

describe('runner/modules k6, k6/metrics, k6/execution, k6/encoding, k6/crypto', function () {
  const open: Harness[] = [];
  afterEach(async () => {
    for (const h of open.splice(0)) await h.vu.close();
  });
  async function iterate(code: string, c = ctx()): Promise<{ h: Harness; error?: string; out: unknown[] }> {
    const h = await makeVu(`const out = (x) => console.log(JSON.stringify(x));\n${code}`);
    open.push(h);
    await h.vu.init();
    const r = await h.vu.iterate('default', undefined, c);
    const out = h.logs.filter((l) => l.level === 'info').map((l) => JSON.parse(l.message) as unknown);
    return { h, error: r.error, out };
  }

  it('check: one sample per key in order, with extra tags; returns false if any fails; a throwing check emits 0 and stops', async () => {
    const { h, out, error } = await iterate(`import { check } from 'k6';
      export default function () {
        out(check(5, { 'is five': (v) => v === 5, 'plain false': false }, { kind: 'k' }));
        out(check(1, { ok: () => true }));
        check(1, { boom: () => { throw new Error('check threw'); }, never: () => true });
      }`);
    assert.deepEqual(out, [false, true]);
    const checks = h.samples.filter((s) => s.metric === 'checks');
    assert.deepEqual(
      checks.map((s) => [s.tags.check, s.value, s.tags.kind]),
      [
        ['is five', 1, 'k'],
        ['plain false', 0, 'k'],
        ['ok', 1, undefined],
        ['boom', 0, undefined],
      ],
    );
    assert.match(error!, /check threw/);
  });

  it("check: every sample of one call has the time taken before its conditions ran, as k6's Check; group_duration's time is its end", async () => {
    const { h, out } = await iterate(`import { check, group } from 'k6';
      const busy = (ms) => { const end = Date.now() + ms; while (Date.now() < end); return true; };
      export default function () {
        out(Date.now());
        check(1, { first: () => busy(30), second: () => busy(30) });
        out(Date.now());
        group('G', () => busy(30));
        out(Date.now());
      }`);
    const [before, afterCheck, afterGroup] = out as [number, number, number];
    const times = h.samples.filter((s) => s.metric === 'checks').map((s) => s.time);
    assert.equal(times.length, 2);
    assert.equal(times[0], times[1]);
    // Taken before the first condition's 30 ms: not after them (the call itself lasts 60 ms).
    assert.ok(
      times[0]! >= before - 1 && times[0]! < afterCheck - 50,
      `check time ${times[0]} in [${before}, ${afterCheck}]`,
    );
    const g = h.samples.find((s) => s.metric === 'group_duration')!;
    assert.ok(g.value >= 29, `group_duration ${g.value}`);
    assert.ok(
      g.time >= afterCheck + 29 && g.time <= afterGroup + 1,
      `group time ${g.time} in [${afterCheck}, ${afterGroup}]`,
    );
  });

  it('group: nested ::A::B paths on samples, group_duration tagged with its own path even when it throws, returns the value', async () => {
    const { h, out } = await iterate(`import { check, group } from 'k6';
      export default function () {
        out(group('A', () => group('B', () => { check(1, { inner: true }); return 42; })));
        try { group('C', () => { throw new Error('x'); }); } catch (e) { out(e.message); }
        check(1, { root: true });
      }`);
    assert.deepEqual(out, [42, 'x']);
    const g = h.samples.filter((s) => s.metric === 'group_duration').map((s) => s.tags.group);
    assert.deepEqual(g, ['::A::B', '::A', '::C']);
    const c = h.samples.filter((s) => s.metric === 'checks').map((s) => s.tags.group);
    assert.deepEqual(c, ['::A::B', '']);
  });

  it('group and check reject :: in names and async group callbacks', async () => {
    const a = await iterate(
      `import { group } from 'k6'; export default function () { group('a::b', () => {}); }`,
    );
    assert.match(a.error!, /may not contain '::'/);
    const b = await iterate(
      `import { group } from 'k6'; export default function () { group('a', async () => {}); }`,
    );
    assert.match(b.error!, /async/);
  });

  it('randomSeed makes Math.random repeatable; sleep(0) returns', async () => {
    const { out } = await iterate(`import { randomSeed, sleep } from 'k6';
      export default function () { randomSeed(7); const a = Math.random(); randomSeed(7); sleep(0); out(a === Math.random()); }`);
    assert.deepEqual(out, [true]);
  });

  it('k6/metrics: Counter, Gauge, Rate (booleans, truthy -> 1), Trend isTime; add tags; NaN dropped with a warning', async () => {
    const { h } = await iterate(`import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
      const c = new Counter('my_counter'); const g = new Gauge('my_gauge'); const r = new Rate('my_rate');
      const t = new Trend('my_trend', true); const t2 = new Trend('my_plain');
      export default function () { c.add(2, { k: 'v' }); g.add(4); r.add(true); r.add(0); r.add(5); t.add(1.5); t2.add(3); c.add(NaN); }`);
    const got = h.samples
      .filter((s) => s.metric.startsWith('my_'))
      .map((s) => [s.metric, s.type, s.contains, s.value, s.tags.k ?? '']);
    assert.deepEqual(got, [
      ['my_counter', 'counter', 'default', 2, 'v'],
      ['my_gauge', 'gauge', 'default', 4, ''],
      ['my_rate', 'rate', 'default', 1, ''],
      ['my_rate', 'rate', 'default', 0, ''],
      ['my_rate', 'rate', 'default', 1, ''],
      ['my_trend', 'trend', 'time', 1.5, ''],
      ['my_plain', 'trend', 'default', 3, ''],
    ]);
    assert.ok(h.logs.some((l) => l.level === 'warn' && l.message.includes('my_counter')));
  });

  it('k6/metrics: declaring outside init and redeclaring a built-in with another type fail', async () => {
    const a = await iterate(
      `import { Counter } from 'k6/metrics'; export default function () { new Counter('late'); }`,
    );
    assert.match(a.error!, /init context/);
    const h = await makeVu(
      `import { Counter } from 'k6/metrics'; new Counter('http_req_duration'); export default function () {}`,
    );
    open.push(h);
    await assert.rejects(h.vu.init(), /already exists but with type trend/);
  });

  it('k6/execution: vu, scenario, instance, test.options; vu.tags added to samples; init-context access throws', async () => {
    const c = ctx({ name: 'sc1', executor: 'constant-vus', iterationInTest: 9, progress: 0.5 }, 4);
    // exec.test.options shows k6's Options fields only: the shortcuts (vus, duration...) are in scenarios.
    c.testOptions = { vus: 2, maxRedirects: 3 };
    const { out, h } = await iterate(
      `import exec from 'k6/execution'; import { check } from 'k6';
      let initErr = ''; try { exec.vu.idInTest; } catch (e) { initErr = e.message; }
      export default function () {
        exec.vu.tags.mytag = 'm';
        out([exec.vu.idInTest, exec.vu.iterationInScenario, exec.scenario.name, exec.scenario.executor,
             exec.scenario.iterationInTest, exec.scenario.progress, exec.test.options.maxRedirects, 'vus' in exec.test.options, exec.vu.tags.scenario, initErr]);
        check(1, { tagged: true });
      }`,
      c,
    );
    assert.deepEqual(out[0], [
      1,
      4,
      'sc1',
      'constant-vus',
      9,
      0.5,
      3,
      false,
      'sc1',
      'getting VU information in the init context is not supported',
    ]);
    assert.equal(h.samples.find((s) => s.metric === 'checks')!.tags.mytag, 'm');
  });

  it('k6/encoding and k6/crypto basics', async () => {
    const { out } = await iterate(`import encoding from 'k6/encoding'; import crypto from 'k6/crypto';
      export default function () {
        out([encoding.b64encode('hi?>'), encoding.b64encode('hi?>', 'rawurl'), encoding.b64decode('aGk=', 'std', 's'),
             crypto.md5('abc', 'hex'), crypto.sha256('abc', 'hex').slice(0, 8), crypto.hmac('sha256', 'k', 'm', 'hex').length]);
      }`);
    assert.deepEqual(out[0], [
      'aGk/Pg==',
      'aGk_Pg',
      'hi',
      '900150983cd24fb0d6963f7d28e17f72',
      'ba7816bf',
      64,
    ]);
  });
});
