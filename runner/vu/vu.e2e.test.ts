import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { ScriptError, ScriptLoadError, loadScript } from '../host/hosted-vu.js';
import { ctx, makeVu, writeScript, type Harness, vuSuite } from './test-support.js';
import { K6_SAMPLES } from '../../devkit/k6-reference.js';

const REF = `${K6_SAMPLES}/points-head.ndjson`;

/** Tag keys per metric in real k6's NDJSON (minus the user/scenario tags of that script). */
function referenceTagKeys(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const p of ndjsonPoints(readFileSync(REF, 'utf8'))) {
    const tags = p.data.tags ?? {};
    if (tags.group === '::setup' || out.has(p.metric)) continue;
    const keys = Object.keys(tags).filter((k) => !['endpoint', 'test_type', 'page'].includes(k));
    out.set(p.metric, keys.sort());
  }
  return out;
}

/** The field k6's console logger adds to every console.* line. */
const CONSOLE = { source: 'console' };
describe('runner/vu: a VU in a worker thread', function () {
  const suite = vuSuite();
  async function vuFor(code: string, opts: Parameters<typeof makeVu>[1] = {}): Promise<Harness> {
    const h = await makeVu(code, { env: { BASE: suite.target.base, ...opts.env }, ...opts });
    suite.open.push(h);
    return h;
  }

  it('runs init, returns options and export names', async () => {
    const h = await vuFor(`export const options = { vus: 2, thresholds: { checks: ['rate>0.9'] } };
      export function setup() {} export default function () {}`);
    const r = await h.vu.init();
    assert.deepEqual(r.options, { vus: 2, thresholds: { checks: ['rate>0.9'] } });
    assert.deepEqual(r.exports.sort(), ['default', 'options', 'setup']);
  });

  it('emits the samples of an iteration with k6 names and tag keys (reference NDJSON)', async () => {
    const h = await vuFor(`import http from 'k6/http'; import { check, group } from 'k6';
      import { Trend, Counter } from 'k6/metrics';
      const t = new Trend('login_duration', true); const c = new Counter('login_errors');
      export default function () {
        group('01_health', () => { const r = http.get(__ENV.BASE + '/json'); check(r, { 'health status 200': (x) => x.status === 200 }); t.add(5); c.add(0); });
      }`);
    await h.vu.init();
    const res = await h.vu.iterate('default', undefined, ctx({ name: 'api' }));
    assert.deepEqual(res, { completed: true });
    const ref = referenceTagKeys();
    const names = [...new Set(h.samples.map((s) => s.metric))];
    assert.deepEqual(names, [
      'http_reqs',
      'http_req_duration',
      'http_req_blocked',
      'http_req_connecting',
      'http_req_tls_handshaking',
      'http_req_sending',
      'http_req_waiting',
      'http_req_receiving',
      'http_req_failed',
      'checks',
      'login_duration',
      'login_errors',
      'group_duration',
      'data_sent',
      'data_received',
      'iteration_duration',
      'iterations',
    ]);
    for (const s of h.samples) {
      const want = ref.get(s.metric);
      assert.ok(want, `reference has ${s.metric}`);
      assert.deepEqual(Object.keys(s.tags).sort(), want, `tag keys of ${s.metric}`);
    }
    const reqs = h.samples.find((s) => s.metric === 'http_reqs')!;
    assert.deepEqual(reqs.tags, {
      scenario: 'api',
      group: '::01_health',
      method: 'GET',
      name: `${suite.target.base}/json`,
      url: `${suite.target.base}/json`,
      status: '200',
      proto: 'HTTP/1.1',
      expected_response: 'true',
    });
    const types = Object.fromEntries(h.samples.map((s) => [s.metric, `${s.type}/${s.contains}`]));
    assert.equal(types.http_req_duration, 'trend/time');
    assert.equal(types.login_duration, 'trend/time');
    assert.equal(types.login_errors, 'counter/default');
    assert.equal(types.data_sent, 'counter/data');
    assert.equal(types.checks, 'rate/default');
    assert.equal(h.samples.find((s) => s.metric === 'group_duration')!.tags.group, '::01_health');
    assert.equal(h.samples.find((s) => s.metric === 'iterations')!.tags.group, '');
    assert.ok(h.samples.find((s) => s.metric === 'data_sent')!.value > 0, 'bytes were sent');
    assert.ok(h.samples.find((s) => s.metric === 'data_received')!.value > 0, 'bytes were received');
  });

  it("a redirect whose Location cannot be parsed: status 0 and Go's error as k6, samples for the 302 only", async () => {
    const h = await vuFor(`import http from 'k6/http';
      export default function () {
        const res = http.get(__ENV.BASE + '/bad-location');
        console.log(JSON.stringify([res.status, res.error_code, res.error]));
      }`);
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    // k6 v1.3, js/modules/k6/http/request_test.go "Bad location redirect": code 1000, one request's samples.
    const error =
      'failed to parse Location header "h\\t:/": parse "h\\t:/": net/url: invalid control character in URL';
    assert.deepEqual(JSON.parse(h.logs.find((l) => l.level === 'info')!.message), [0, 1000, error]);
    const reqs = h.samples.filter((s) => s.metric === 'http_reqs');
    assert.deepEqual(
      reqs.map((s) => s.tags.status),
      ['302'],
    );
    const warning = h.logs.find((l) => l.level === 'warn')!;
    assert.equal(warning.fields?.error, `Get "${suite.target.base}/bad-location": ${error}`);
  });

  it('reports consistent timings: duration = sending + waiting + receiving, connecting only on a new connection', async () => {
    const h = await vuFor(`import http from 'k6/http';
      export default function () { for (let i = 0; i < 3; i++) http.get(__ENV.BASE + '/slow?ms=30'); }`);
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    const by = (m: string) => h.samples.filter((s) => s.metric === m).map((s) => s.value);
    const [dur, snd, wai, rec, con, blk] = [
      'http_req_duration',
      'http_req_sending',
      'http_req_waiting',
      'http_req_receiving',
      'http_req_connecting',
      'http_req_blocked',
    ].map(by);
    for (let i = 0; i < 3; i++) {
      assert.ok(Math.abs(dur![i]! - (snd![i]! + wai![i]! + rec![i]!)) < 1e-9);
      assert.ok(wai![i]! >= 25, `waiting covers the server's 30 ms (${wai![i]})`);
      assert.ok(blk![i]! >= con![i]!, 'blocked includes dialing');
    }
    assert.ok(con![0]! > 0, 'first request dialed');
    assert.deepEqual(con!.slice(1), [0, 0], 'keep-alive reuse');
  });

  it('passes setup data to iterations and teardown, with ::setup/::teardown groups', async () => {
    const h = await vuFor(
      `import http from 'k6/http';
      export function setup() { http.get(__ENV.BASE + '/json'); return { token: 't-1', n: 2 }; }
      export default function (data) { if (data.token !== 't-1') throw new Error('no data'); }
      export function teardown(data) { console.log('teardown', data.n); }`,
      { vuId: 0 },
    );
    await h.vu.init();
    const data = await h.vu.runSetup({});
    assert.deepEqual(data, { token: 't-1', n: 2 });
    assert.deepEqual(await h.vu.iterate('default', data, ctx()), { completed: true });
    await h.vu.runTeardown(data, {});
    assert.deepEqual(h.logs, [{ level: 'info', message: 'teardown 2', fields: CONSOLE }]);
    const setupReq = h.samples.find((s) => s.metric === 'http_reqs')!;
    assert.equal(setupReq.tags.group, '::setup');
    assert.equal(setupReq.tags.scenario, undefined);
    const dataSent = h.samples.filter((s) => s.metric === 'data_sent').map((s) => s.tags);
    assert.deepEqual(dataSent, [
      { group: '::setup' },
      { group: '', scenario: 'default' },
      { group: '::teardown' },
    ]);
  });

  it('interrupt() cuts a sleep short and the iteration is not counted', async () => {
    const h = await vuFor(`import { sleep } from 'k6'; export default function () { sleep(30); }`);
    await h.vu.init();
    const started = Date.now();
    const p = h.vu.iterate('default', undefined, ctx());
    setTimeout(() => h.vu.interrupt(), 100);
    const res = await p;
    assert.equal(res.completed, false);
    assert.ok(Date.now() - started < 10_000, 'did not sleep 30 s');
    assert.equal(h.samples.filter((s) => s.metric === 'iterations').length, 0);
    // The VU is usable again after an interruption.
    const again = h.vu.iterate('default', undefined, ctx());
    setTimeout(() => h.vu.interrupt(), 100);
    assert.equal((await again).completed, false);
  }).timeout(20_000);

  it('interrupt() aborts an HTTP request in flight', async () => {
    const h = await vuFor(
      `import http from 'k6/http'; export default function () { http.get(__ENV.BASE + '/slow?ms=5000'); }`,
    );
    await h.vu.init();
    const p = h.vu.iterate('default', undefined, ctx());
    setTimeout(() => h.vu.interrupt(), 150);
    assert.equal((await p).completed, false);
  });

  it('rejects init with a ScriptError carrying k6-style message and source location', async () => {
    const h = await vuFor(
      `import http from 'k6/http';\nthrow new Error('boom in init');\nexport default function () {}`,
    );
    await assert.rejects(h.vu.init(), (err: Error) => {
      assert.ok(err instanceof ScriptError);
      assert.match(err.message, /^Error: boom in init\n\tat file:\/\/\/.*script-\d+\.js:2:7/);
      return true;
    });
  });

  it('logs an iteration exception with location and keeps counting the iteration', async () => {
    const h = await vuFor(
      `export const options = { iterations: 2 };\nexport default function () { throw new Error('boom in iteration'); }`,
    );
    await h.vu.init();
    const res = await h.vu.iterate('default', undefined, ctx());
    assert.equal(res.completed, true);
    assert.match(res.error!, /^Error: boom in iteration\n\tat default \(file:\/\/\/.*:2:\d+\)/);
    assert.equal(h.samples.filter((s) => s.metric === 'iterations').length, 1);
  });

  it('fail() ends the iteration as a GoError that still counts', async () => {
    const h = await vuFor(
      `import { fail } from 'k6'; export default function () { fail('iteration failed'); }`,
    );
    await h.vu.init();
    const res = await h.vu.iterate('default', undefined, ctx());
    assert.match(res.error!, /^GoError: iteration failed/);
    assert.equal(h.samples.filter((s) => s.metric === 'iterations').length, 1);
  });

  it('exec.test.abort() and exec.test.fail() come back in the IterationResult', async () => {
    const h = await vuFor(`import exec from 'k6/execution';
      export default function () { if (__ITER === 0) exec.test.fail('marked'); else exec.test.abort('stop now'); }`);
    await h.vu.init();
    assert.deepEqual(await h.vu.iterate('default', undefined, ctx()), {
      completed: true,
      markFailed: 'marked',
    });
    const r = await h.vu.iterate('default', undefined, ctx({}, 1));
    assert.match(r.abort!.reason, /^test aborted: stop now at default \(file:\/\/\/.*\)/);
  });

  it('handleSummary returns its files; undefined when the export is missing', async () => {
    const h = await vuFor(`export default function () {}
      export function handleSummary(data) { return { stdout: 'total ' + data.n, 'out.bin': new Uint8Array([1, 2]).buffer, 'x.json': { a: 1 } }; }`);
    await h.vu.init();
    const out = await h.vu.handleSummary({ n: 3 }, {});
    assert.equal(out!.stdout, 'total 3');
    assert.deepEqual([...new Uint8Array(out!['out.bin'] as ArrayBuffer)], [1, 2]);
    assert.equal(out!['x.json'], '{"a":1}');
    const h2 = await vuFor(`export default function () {}`);
    await h2.vu.init();
    assert.equal(await h2.vu.handleSummary({}, {}), undefined);
  });

  it('exposes __ENV, __VU, __ITER, open() relative to the script, and console levels', async () => {
    writeScript('line1\nline2', 'txt', 'data-file.txt');
    const h = await vuFor(
      `const text = open('./data-file.txt'); const bin = open('./data-file.txt', 'b');
      export default function () { console.log(__ENV.FOO, __VU, __ITER, text.split('\\n').length, bin.byteLength);
        console.warn({ a: 1 }); console.error('e'); console.debug('d'); }`,
      { env: { FOO: 'bar' }, vuId: 3 },
    );
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    await h.vu.iterate('default', undefined, ctx());
    assert.deepEqual(h.logs.slice(0, 5), [
      { level: 'info', message: 'bar 3 0 2 11', fields: CONSOLE },
      { level: 'warn', message: '{"a":1}', fields: CONSOLE },
      { level: 'error', message: 'e', fields: CONSOLE },
      { level: 'debug', message: 'd', fields: CONSOLE },
      { level: 'info', message: 'bar 3 1 2 11', fields: CONSOLE },
    ]);
  });

  it('repeated iterate commands: each iteration its own numbers, setup data kept per VU as k6 unmarshals it once', async () => {
    const h = await vuFor(
      `import exec from 'k6/execution';
      export default function (data) { data.seen = (data.seen ?? 0) + 1;
        console.log([exec.scenario.name, exec.scenario.iterationInTest, exec.vu.iterationInScenario, exec.vu.iterationInInstance, data.seen, data.label].join(' ')); }`,
    );
    await h.vu.init();
    const data = { label: 'a' };
    const first = ctx({ name: 'arrivals', executor: 'constant-arrival-rate' }, 0);
    const scenario = first.scenario;
    const next = (i: number) => ({
      ...first,
      scenario: { ...scenario, iterationInTest: i },
      iterationInScenario: i,
      iterationInInstance: i,
    });
    await h.vu.iterate('default', data, first);
    await h.vu.iterate('default', data, next(1));
    await h.vu.iterate('default', data, next(2));
    // New setup data (another test run's) and another scenario are sent in full again.
    await h.vu.iterate('default', { label: 'b' }, next(3));
    await h.vu.iterate('default', { label: 'b' }, ctx({ name: 'other' }, 4));
    assert.deepEqual(
      h.logs.map((l) => l.message),
      [
        'arrivals 0 0 0 1 a',
        'arrivals 1 1 1 2 a',
        'arrivals 2 2 2 3 a',
        'arrivals 3 3 3 1 b',
        'other 4 4 4 1 b',
      ],
    );
    assert.equal(data.label, 'a', "the caller's object is never the VU's copy");
    // An iterate refused while the VU is busy must not become what later ones are compared with.
    const c = { label: 'c' };
    const third = ctx({ name: 'third' }, 6);
    const running = h.vu.iterate('default', { label: 'b' }, ctx({ name: 'other' }, 5));
    await assert.rejects(h.vu.iterate('default', c, third), /busy/);
    await running;
    const again = { ...third, scenario: { ...third.scenario, iterationInTest: 7 }, iterationInScenario: 7 };
    await h.vu.iterate('default', c, { ...again, iterationInInstance: 7 });
    assert.equal(h.logs.at(-1)!.message, 'third 7 7 7 1 c');
  });

  it('builds __ENV once per scenario, as k6 does on VU activation: writes last for the scenario', async () => {
    const h = await vuFor(
      `export default function () { console.log(__ENV.FOO, __ENV.ONLY, __ENV.N); __ENV.N = String(Number(__ENV.N ?? 0) + 1); }`,
      { env: { FOO: 'bar' } },
    );
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx({ name: 'one', env: { ONLY: 'one' } }, 0));
    await h.vu.iterate('default', undefined, ctx({ name: 'one', env: { ONLY: 'one' } }, 1));
    await h.vu.iterate('default', undefined, ctx({ name: 'two', env: { FOO: 'two' } }, 0));
    assert.deepEqual(
      h.logs.map((l) => l.message),
      ['bar one undefined', 'bar one 1', 'two undefined undefined'],
    );
  });

  it('runs TypeScript scripts with local imports, and async default functions', async () => {
    writeScript(`export function twice(n: number): number { return n * 2; }`, 'ts', 'lib.ts');
    const h = await vuFor(
      `import { twice } from './lib.ts'; import { check } from 'k6';
      interface Thing { n: number }
      export default async function (): Promise<void> { const t: Thing = { n: await Promise.resolve(21) }; check(t, { 'is 42': (x) => twice(x.n) === 42 }); }`,
      { ext: 'ts' },
    );
    await h.vu.init();
    await h.vu.iterate('default', undefined, ctx());
    assert.deepEqual(
      h.samples.filter((s) => s.metric === 'checks').map((s) => s.value),
      [1],
    );
  });

  it('scenario tags, run tags and exec functions; systemTags filters', async () => {
    const h = await vuFor(
      `import { check } from 'k6'; export function other() { check(1, { ok: true }); } export default function () {}`,
      { runTags: { run: 'r1' }, systemTags: ['check', 'scenario'] },
    );
    await h.vu.init();
    await h.vu.iterate('other', undefined, ctx({ name: 's2', tags: { kind: 'x' }, exec: 'other' }));
    assert.deepEqual(h.samples.find((s) => s.metric === 'checks')!.tags, {
      run: 'r1',
      kind: 'x',
      scenario: 's2',
      check: 'ok',
    });
    const missing = await h.vu.iterate('nope', undefined, ctx());
    assert.match(missing.error!, /nope/);
  });

  it('an unawaited rejected promise is its iteration’s error, as k6 reports it, and the VU keeps working', async () => {
    const h = await vuFor(`export default function () { Promise.reject(new Error('lost')); }`);
    await h.vu.init();
    for (let i = 0; i < 2; i += 1) {
      const result = await h.vu.iterate('default', undefined, ctx());
      assert.equal(result.completed, true);
      assert.equal(result.inPromise, true);
      assert.match(result.error!, /^Uncaught \(in promise\) Error: lost\n\tat default \(/);
    }
  });

  it('rejects a custom metric name k6 rejects at init (exit 107 path)', async () => {
    const h = await vuFor(
      `import { Counter } from 'k6/metrics'; const c = new Counter('c'); export default function () {}`,
    );
    await assert.rejects(h.vu.init(), /Metric names must match/);
  });

  it('rejects unknown k6 modules at init', async () => {
    const h = await vuFor(`import x from 'k6/nope'; export default function () { x(); }`);
    await assert.rejects(h.vu.init(), /unknown module: k6\/nope/);
  });

  it("loadScript: one-line ScriptLoadError for a missing file and a syntax error, with k6's analysis of each", async () => {
    await assert.rejects(
      loadScript('/nonexistent/x.js'),
      (e: Error) =>
        e instanceof ScriptLoadError &&
        !e.message.includes('\n') &&
        e.failure.plain === true &&
        e.failure.analysis === `reading source for analysis ${e.message}`,
    );
    const bad = writeScript('export default function ( {');
    await assert.rejects(
      loadScript(bad),
      (e: Error) =>
        e instanceof ScriptLoadError &&
        /^file:\/\/.*: Line 1:\d+ /.test(e.message) &&
        /:1:\d+ Expected/.test(e.failure.analysis ?? ''),
    );
  });
});
