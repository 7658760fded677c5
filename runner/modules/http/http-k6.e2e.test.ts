// k6/http and k6/html against real k6: fixtures/http-*.js and html.js run on both engines against a server this test
// starts, which records every request as it arrived (header names and order as written, bodies),
// sets and echoes cookies, and asks for Digest credentials. Same log lines, same requests on the
// wire, same http_reqs samples.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { realK6OrSkip } from '../../testing/log-lines.js';
import { runLoadlab } from '../../../devkit/loadlab-run.js';

interface Recorded {
  method: string;
  url: string;
  raw: string[];
  body: string;
}

/** What /page answers (fixtures/html.js reads it through Response.html()). */
const PAGE = `<!doctype html><html><head><title>Clinic &amp; Co</title></head><body><h1>Owners</h1>
<p>First <a href="/owners/1">Ann</a></p><p>Second <a href="https://example.test/x">out</a></p>
<table><tr><td>a</td><td>b</td></tr><tr><td>c</td></table>
<span id="ent">&lt;tag&gt; &eacute; &#x41;</span><div id="ws">  spaced
  text </div></body></html>`;

const md5 = (s: string) => createHash('md5').update(s).digest('hex');
const REALM = 'lab';
const PASSWORD = 'pass';

/** Multipart parts sorted by name, the boundary replaced: k6 writes a Go map's fields in random order. */
function normalizeBody(req: IncomingMessage, body: string): string {
  const boundary = /boundary=(\S+)/.exec(req.headers['content-type'] ?? '')?.[1];
  if (!boundary) return body;
  const parts = body.split(`--${boundary}`).slice(1, -1).sort();
  return [...parts, '--\r\n'].join('--B');
}

/** True when the Authorization header answers this server's Digest challenge for PASSWORD. */
function digestOk(req: IncomingMessage): boolean {
  const auth = req.headers.authorization ?? '';
  if (!auth.startsWith('Digest ')) return false;
  const p: Record<string, string> = {};
  for (const m of auth.matchAll(/(\w+)=(?:"([^"]*)"|([^,\s]*))/g)) p[m[1]!] = m[2] ?? m[3]!;
  const ha1 = md5(`${p.username}:${REALM}:${PASSWORD}`);
  const ha2 = md5(`${req.method}:${p.uri}`);
  return p.response === md5(`${ha1}:${p.nonce}:${p.nc}:${p.cnonce}:${p.qop}:${ha2}`);
}

async function startRecorder(): Promise<{
  base: string;
  records: Recorded[];
  server: Server;
  connections: () => number;
}> {
  const records: Recorded[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const body = normalizeBody(req, Buffer.concat(chunks).toString('latin1'));
      // The port differs between the runs: the Host header keeps only the host.
      const raw = req.rawHeaders.map((v, i) =>
        i % 2 === 1 && req.rawHeaders[i - 1] === 'Host' ? 'HOST' : v,
      );
      // A digest answer's parameters come in Go map order, its cnonce and a multipart boundary are random.
      for (let i = 1; i < raw.length; i += 2) {
        if (raw[i]!.startsWith('Digest ')) raw[i] = 'Digest ...';
        raw[i] = raw[i]!.replace(/boundary=[0-9a-f]+/, 'boundary=B');
      }
      records.push({ method: req.method ?? '', url: req.url ?? '', raw, body });
      // Read, never answered: the request ends at its timeout (fixtures/http-no-answer.js).
      if (url.pathname === '/silent') return;
      if (url.pathname === '/set') {
        res.setHeader(
          'Set-Cookie',
          [...url.searchParams].map(([k, v]) => `${k}=${v}; Path=/`),
        );
        res.end('set');
      } else if (url.pathname === '/cookie') res.end(req.headers.cookie ?? '');
      else if (url.pathname === '/body') res.end(Buffer.from(url.searchParams.get('b') ?? '', 'base64url'));
      else if (url.pathname === '/page') {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end(PAGE);
      } else if (url.pathname.startsWith('/digest/') && !digestOk(req)) {
        const wrong = (req.headers.authorization ?? '').startsWith('Digest ');
        res.writeHead(wrong ? 403 : 401, {
          'WWW-Authenticate': `Digest realm="${REALM}", qop="auth", nonce="n0nce", opaque="op", algorithm=MD5`,
        });
        res.end('no');
      } else res.end('ok');
    });
  });
  server.on('connection', () => (connections += 1));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, records, server, connections: () => connections };
}

/** Batched requests arrive in either order. */
function sortedRecords(r: Recorded[]): string[] {
  return r.map((x) => JSON.stringify(x)).sort();
}

interface EngineRun {
  lines: string[];
  records: Recorded[];
  /** Each http_reqs sample as "status expected_response url", port replaced, sorted. */
  httpReqs: string[];
  /** Sums of data_sent and data_received. */
  bytes: { sent: number; received: number };
  /** TCP connections the server accepted. */
  connections: number;
}

async function runOn(engine: 'k6' | 'node', script: string): Promise<EngineRun> {
  const { base, records, server, connections } = await startRecorder();
  const out = join(mkdtempSync(join(tmpdir(), 'loadlab-http-k6-')), 'points.ndjson');
  try {
    const run = await runLoadlab(
      ['-q', '--summary-mode=disabled', '-o', `json=${out}`, '-e', `BASE=${base}`, script],
      { engine, timeoutMs: 60_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    const port = new URL(base).port;
    const lines = run.stderr
      .split('\n')
      .filter((line) => line.startsWith('time=') && !line.includes('Error from API server'))
      .map((line) => line.replace(/^time="[^"]*" /, '').replaceAll(port, 'PORT'));
    const ndjson = readFileSync(out, 'utf8');
    const httpReqs = ndjsonPoints(ndjson, 'http_reqs')
      .map(({ data: { tags } }) =>
        `${tags?.status} ${tags?.expected_response} ${tags?.url}`.replaceAll(port, 'PORT'),
      )
      .sort();
    const sum = (metric: string) =>
      ndjsonPoints(ndjson, metric).reduce((total, p) => total + p.data.value, 0);
    return {
      lines,
      records,
      httpReqs,
      bytes: { sent: sum('data_sent'), received: sum('data_received') },
      connections: connections(),
    };
  } finally {
    server.closeAllConnections();
    server.close();
  }
}

describe('runner/modules k6/http on real k6 and the runner', function () {
  this.timeout(120_000);

  it('fixtures/http-wire.js: the same requests on the wire (headers, order, bodies, credentials), lines and samples', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-wire.js';
    const k6 = await runOn('k6', script);
    const runner = await runOn('node', script);
    assert.ok(k6.records.length >= 20, `${k6.records.length} requests recorded`);
    assert.deepEqual(sortedRecords(runner.records), sortedRecords(k6.records));
    assert.deepEqual(runner.lines, k6.lines);
    assert.deepEqual(runner.httpReqs, k6.httpReqs);
    // The same heads and bodies both ways: the same bytes on the wire.
    assert.ok(k6.bytes.sent > 0 && k6.bytes.received > 0, JSON.stringify(k6.bytes));
    assert.deepEqual(runner.bytes, k6.bytes);
  });

  it("fixtures/http-urls.js: URLs as Go's net/url reads them: the request's target, Response.url, tags, errors", async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-urls.js';
    const k6 = await runOn('k6', script);
    const runner = await runOn('node', script);
    assert.ok(
      k6.records.some((r) => r.url === '/a/../b/./c'),
      'k6 sent the dot segments as written',
    );
    assert.deepEqual(
      runner.records.map((r) => r.url),
      k6.records.map((r) => r.url),
    );
    assert.deepEqual(runner.lines, k6.lines);
    assert.deepEqual(runner.httpReqs, k6.httpReqs);
  });

  it('fixtures/http-keepalive.js: the connection stays open after a HEAD, as Go keeps it', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-keepalive.js';
    const k6 = await runOn('k6', script);
    const runner = await runOn('node', script);
    assert.equal(k6.lines.length, 3, k6.lines.join('\n'));
    assert.deepEqual(runner.lines, k6.lines);
    assert.equal(k6.connections, 1);
    assert.equal(runner.connections, k6.connections);
    assert.deepEqual(runner.bytes, k6.bytes);
  });

  it('fixtures/http-no-answer.js: requests never answered end at their timeout, their bytes sent counted as k6 counts them', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-no-answer.js';
    const k6 = await runOn('k6', script);
    const runner = await runOn('node', script);
    assert.equal(k6.lines.length, 8, k6.lines.join('\n'));
    assert.deepEqual(runner.lines, k6.lines);
    assert.deepEqual(sortedRecords(runner.records), sortedRecords(k6.records));
    assert.ok(k6.bytes.sent > 0 && k6.bytes.received === 0, JSON.stringify(k6.bytes));
    assert.deepEqual(runner.bytes, k6.bytes);
    assert.deepEqual(runner.httpReqs, k6.httpReqs);
  });

  it('fixtures/http-jar.js: cookie jars (the VU jar, new http.CookieJar with params.jar, set options) log the same lines', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-jar.js';
    const k6 = await runOn('k6', script);
    assert.ok(k6.lines.length >= 30, k6.lines.join('\n'));
    const runner = await runOn('node', script);
    assert.deepEqual(runner.lines, k6.lines);
    assert.deepEqual(sortedRecords(runner.records), sortedRecords(k6.records));
  });

  it('fixtures/html.js: parseHTML and Response.html(), Selection and Element, log the same lines', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/html.js';
    const k6 = await runOn('k6', script);
    assert.ok(k6.lines.length >= 25, k6.lines.join('\n'));
    assert.ok(!k6.lines.some((l) => l.startsWith('level=error')), k6.lines.join('\n'));
    const runner = await runOn('node', script);
    assert.deepEqual(runner.lines, k6.lines);
  });

  it('fixtures/http-response-html.js: Response.html() without k6/html (a VU isolate hands the script to a worker), a null body refused in k6 words', async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-response-html.js';
    const k6 = await runOn('k6', script);
    assert.ok(
      k6.lines.some((l) => l.includes('Clinic & Co 2 /owners/1')),
      k6.lines.join('\n'),
    );
    const runner = await runOn('node', script);
    assert.deepEqual(runner.lines, k6.lines);
  });

  it("fixtures/http-response-json.js: Response.json() of bodies that are not JSON, in Go's decoder's words and k6's place; a selector of one is undefined", async function () {
    realK6OrSkip(this);
    const script = 'runner/modules/fixtures/http-response-json.js';
    const k6 = await runOn('k6', script);
    assert.ok(
      k6.lines.some((l) => l.includes("invalid character '<' looking for beginning of value")),
      k6.lines.join('\n'),
    );
    const runner = await runOn('node', script);
    assert.deepEqual(runner.lines, k6.lines);
  });
});
