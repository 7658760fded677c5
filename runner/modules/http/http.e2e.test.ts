import assert from 'node:assert/strict';
import type { Sample } from '../../contracts.js';
import { ctx, makeVu, type Harness, vuSuite } from '../../vu/test-support.js';

describe('runner/modules k6/http', function () {
  const suite = vuSuite();

  /** Runs `body` as one iteration; the script reports values with out(x) (JSON lines in the log). */
  async function run(
    body: string,
    testOptions: Record<string, unknown> = {},
  ): Promise<{ out: unknown[]; h: Harness }> {
    const h = await makeVu(
      `import http from 'k6/http'; import { check } from 'k6';
       const out = (x) => console.log(JSON.stringify(x));
       export default function () { const B = __ENV.BASE; ${body} }`,
      { env: { BASE: suite.target.base } },
    );
    suite.open.push(h);
    await h.vu.init();
    const c = ctx();
    c.testOptions = testOptions;
    const res = await h.vu.iterate('default', undefined, c);
    assert.equal(res.error, undefined, res.error);
    const out = h.logs.filter((l) => l.level === 'info').map((l) => JSON.parse(l.message) as unknown);
    return { out, h };
  }
  /** run() for a body that starts with its own import lines (k6/http, check and group are imported). */
  async function makeVuRun(body: string): Promise<{ h: Harness }> {
    const [imports, ...rest] = body.split('\n');
    const h = await makeVu(
      `import http from 'k6/http'; import { check, group } from 'k6'; ${imports}
       export default function () { const B = __ENV.BASE; ${rest.join('\n')} }`,
      { env: { BASE: suite.target.base } },
    );
    suite.open.push(h);
    await h.vu.init();
    const res = await h.vu.iterate('default', undefined, ctx());
    assert.equal(res.error, undefined, res.error);
    return { h };
  }
  const reqs = (samples: Sample[]) => samples.filter((s) => s.metric === 'http_reqs');

  it('Response: status, status_text, proto, canonical joined headers, body, json(selector), timings, request', async () => {
    const { out } = await run(`const r = http.get(B + '/json');
      out([r.status, r.status_text, r.proto, r.headers['Content-Type'], r.headers['X-Multi'], typeof r.body,
           r.json('items.0.id'), r.json('items.#'), r.json('nope.x'), r.json().ok, r.error, r.error_code, r.url,
           Object.keys(r.timings), r.request.method, r.request.headers['User-Agent'], r.remote_ip, r.remote_port > 0]);`);
    assert.deepEqual(out[0], [
      200,
      '200 OK',
      'HTTP/1.1',
      'application/json',
      'a, b',
      'string',
      7,
      1,
      null,
      true,
      '',
      0,
      `${suite.target.base}/json`,
      [
        'duration',
        'blocked',
        'looking_up',
        'connecting',
        'tls_handshaking',
        'sending',
        'waiting',
        'receiving',
      ],
      'GET',
      ['Grafana k6/1.3.0'],
      '127.0.0.1',
      true,
    ]);
  });

  it('methods and bodies: string as-is, object form-urlencoded (arrays repeat), ArrayBuffer, del/put/patch/head/options', async () => {
    await run(`http.post(B + '/echo', 'raw text', { headers: { 'Content-Type': 'text/plain' } });
      http.post(B + '/echo', { a: 1, b: ['x', 'y'] });
      http.put(B + '/echo', new Uint8Array([104, 105]).buffer);
      http.patch(B + '/echo', 'p'); http.del(B + '/echo'); http.head(B + '/echo'); http.options(B + '/echo');
      http.request('GET', B + '/echo', null, { headers: { 'X-Custom': 'v' } });`);
    const got = suite.target.requests
      .slice(-8)
      .map((r) => [r.method, r.body, r.headers['content-type'] ?? '']);
    assert.deepEqual(got, [
      ['POST', 'raw text', 'text/plain'],
      ['POST', 'a=1&b=x&b=y', 'application/x-www-form-urlencoded'],
      ['PUT', 'hi', ''],
      ['PATCH', 'p', ''],
      ['DELETE', '', ''],
      ['HEAD', '', ''],
      ['OPTIONS', '', ''],
      ['GET', '', ''],
    ]);
    assert.equal(suite.target.requests.at(-1)!.headers['x-custom'], 'v');
  });

  it('4xx/5xx: error_code 1000+status, no error, expected_response false and http_req_failed 1', async () => {
    const { out, h } = await run(
      `const r = http.get(B + '/status/404'); out([r.status, r.error, r.error_code]);`,
    );
    assert.deepEqual(out[0], [404, '', 1404]);
    const s = reqs(h.samples)[0]!;
    assert.equal(s.tags.expected_response, 'false');
    assert.equal(s.tags.error_code, '1404');
    assert.equal(s.tags.status, '404');
    assert.equal(h.samples.find((x) => x.metric === 'http_req_failed')!.value, 1);
  });

  it('follows redirects with one http_reqs sample per hop; redirects: 0 stops; Response.url is the final URL', async () => {
    const { out, h } =
      await run(`const r = http.get(B + '/redirect'); const r0 = http.get(B + '/redirect', { redirects: 0 });
      out([r.status, r.url, r0.status]);`);
    assert.deepEqual(out[0], [200, `${suite.target.base}/json`, 302]);
    assert.deepEqual(
      reqs(h.samples).map((s) => [s.tags.url, s.tags.status]),
      [
        [`${suite.target.base}/redirect`, '302'],
        [`${suite.target.base}/json`, '200'],
        [`${suite.target.base}/redirect`, '302'],
      ],
    );
  });

  it('name tag (params.tags.name and http.url template) also becomes the url tag; user tags added', async () => {
    const { h } = await run(`http.get(B + '/json?id=1', { tags: { name: 'GET /json', endpoint: 'j' } });
      const id = 5; http.get(http.url\`\${B}/json?id=\${id}\`);`);
    const [a, b] = reqs(h.samples);
    assert.equal(a!.tags.name, 'GET /json');
    assert.equal(a!.tags.url, 'GET /json');
    assert.equal(a!.tags.endpoint, 'j');
    // Every interpolated value, the base URL included, becomes ${} as in k6.
    assert.equal(b!.tags.name, '${}/json?id=${}');
    assert.equal(b!.tags.url, '${}/json?id=${}');
  });

  it('tags set or deleted through exec.vu.tags and groups entered reach the next requests and checks', async () => {
    const { h } = await makeVuRun(`import exec from 'k6/execution';
      const ok = () => true;
      http.get(B + '/json'); check(1, { c: ok });
      exec.vu.tags.team = 'a';
      http.get(B + '/json'); check(1, { c: ok });
      group('g', () => { http.get(B + '/json'); check(1, { c: ok }); });
      delete exec.vu.tags.team;
      http.get(B + '/json'); check(1, { c: ok });`);
    const view = (metric: string) =>
      h.samples.filter((s) => s.metric === metric).map((s) => [s.tags.team ?? '-', s.tags.group]);
    const expected = [
      ['-', ''],
      ['a', ''],
      ['a', '::g'],
      ['-', ''],
    ];
    assert.deepEqual(view('http_reqs'), expected);
    assert.deepEqual(view('checks'), expected);
  });

  it('network errors: connection refused -> status 0, error_code 1212, zero timings, warning; timeout -> 1050; throw:true throws', async () => {
    const { out, h } = await run(`const r = http.get('http://127.0.0.1:1/x');
      const t = http.get(B + '/slow?ms=2000', { timeout: '100ms' });
      let thrown = ''; try { http.get('http://127.0.0.1:1/x', { throw: true }); } catch (e) { thrown = e.name + ': ' + e.message; }
      out([r.status, r.body, r.error, r.error_code, r.timings.duration, t.error, t.error_code, thrown]);`);
    assert.deepEqual(out[0], [
      0,
      null,
      'dial: connection refused',
      1212,
      0,
      'request timeout',
      1050,
      // k6 throws Go's client error itself (httpext.MakeRequest returns resErr), as a GoError.
      'GoError: Get "http://127.0.0.1:1/x": dial tcp 127.0.0.1:1: connect: connection refused',
    ]);
    const s = reqs(h.samples)[0]!;
    assert.equal(s.tags.status, '0');
    assert.equal(s.tags.error, 'dial: connection refused');
    assert.equal(s.tags.expected_response, 'false');
    assert.ok(h.logs.some((l) => l.level === 'warn' && l.message.startsWith('Request Failed')));
  });

  it('expectedStatuses per request and setResponseCallback; null removes http_req_failed and expected_response', async () => {
    const { h } = await run(`http.get(B + '/status/404', { responseCallback: http.expectedStatuses(404) });
      http.setResponseCallback(http.expectedStatuses({ min: 200, max: 204 }, 302));
      http.get(B + '/redirect', { redirects: 0 });
      http.setResponseCallback(null);
      http.get(B + '/json');`);
    const r = reqs(h.samples);
    assert.deepEqual(
      r.map((s) => s.tags.expected_response),
      ['true', 'true', undefined],
    );
    assert.equal(h.samples.filter((s) => s.metric === 'http_req_failed').length, 2);
  });

  it('cookies: Set-Cookie goes in the VU jar and Response.cookies; params.cookies sent', async () => {
    const { out } =
      await run(`const r = http.get(B + '/cookie'); http.get(B + '/echo', { cookies: { extra: 'e1' } });
      out(r.cookies.sid[0].value);`);
    assert.equal(out[0], 'abc');
    // k6 writes the request's own cookies before the jar's (http-k6.e2e.test.ts holds it to real k6).
    assert.equal(suite.target.requests.at(-1)!.headers.cookie, 'extra=e1; sid=abc');
  });

  it('http.cookieJar(): set, cookiesForURL, delete, clear; jar cookies are sent', async () => {
    const { out } = await run(`const jar = http.cookieJar();
      jar.set(B, 'a', '1'); jar.set(B, 'b', '2');
      const before = jar.cookiesForURL(B + '/x');
      http.get(B + '/echo');
      jar.delete(B, 'a'); const afterDelete = jar.cookiesForURL(B);
      jar.clear(B); out([before, afterDelete, jar.cookiesForURL(B)]);`);
    assert.deepEqual(out[0], [{ a: ['1'], b: ['2'] }, { b: ['2'] }, {}]);
    assert.equal(suite.target.requests.at(-1)!.headers.cookie, 'a=1; b=2');
  });

  it('responseType binary and none; discardResponseBodies option', async () => {
    const { out } = await run(`const b = http.get(B + '/text', { responseType: 'binary' });
      const n = http.get(B + '/text', { responseType: 'none' });
      out([b.body.byteLength, n.body]);`);
    assert.deepEqual(out[0], [5, null]);
    const d = await run(`out(http.get(B + '/text').body);`, { discardResponseBodies: true });
    assert.deepEqual(d.out, [null]);
  });

  it('batch: array and object forms, each request its own samples', async () => {
    const { out, h } =
      await run(`const a = http.batch([B + '/json', ['POST', B + '/echo', 'x'], { method: 'GET', url: B + '/status/201' }]);
      const o = http.batch({ one: B + '/text', two: ['GET', B + '/status/404'] });
      out([a.map((r) => r.status), o.one.body, o.two.status]);`);
    assert.deepEqual(out[0], [[200, 200, 201], 'hello', 404]);
    assert.equal(reqs(h.samples).length, 5);
  });

  it('basic auth from URL credentials; the url tag masks them', async () => {
    const u = suite.target.base.replace('http://', 'http://user:pa55@');
    const { h } = await run(`http.get('${u}/echo');`);
    assert.equal(
      suite.target.requests.at(-1)!.headers.authorization,
      `Basic ${Buffer.from('user:pa55').toString('base64')}`,
    );
    assert.equal(reqs(h.samples)[0]!.tags.url, `${u.replace('user:pa55', '****:****')}/echo`);
  });

  it('is refused in the init context', async () => {
    const h = await makeVu(
      `import http from 'k6/http'; http.get('http://127.0.0.1:1/'); export default function () {}`,
    );
    suite.open.push(h);
    await assert.rejects(h.vu.init(), /Making http requests in the init context is not supported/);
  });
});
