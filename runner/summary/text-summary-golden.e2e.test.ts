// End to end: `loadlab run -q --summary-mode=…` on the k6-golden scripts s1.js and s2.js against a
// loopback target, with the printed summary laid out as real k6 v1.3 printed it (values masked).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { K6_GOLDEN } from '../../devkit/k6-reference.js';
import { firstDifference, layoutOf, summaryPart } from '../metrics/test-support.js';

/** The routes of k6-golden/server.js that s1.js and s2.js call. */
function goldenTarget(): Server {
  return createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      if (path === '/login' && req.method === 'GET') {
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end('<html><body><form method="POST" action="/login"><input name="login"/></form></body></html>');
      } else if (path === '/login') {
        res.writeHead(200, { 'Content-Type': 'text/html', 'Set-Cookie': 'sid=abc; Path=/' });
        res.end('<h2>Welcome, admin!</h2>');
      } else if (path === '/notfound') {
        res.writeHead(404);
        res.end('nope');
      } else if (path === '/redirect') {
        res.writeHead(302, { Location: '/ok' });
        res.end();
      } else {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end('{"ok":true}');
      }
    });
  });
}

describe('runner text summary against k6-golden (s1.js, s2.js through the CLI)', function () {
  this.timeout(120_000);
  let server: Server;
  let dir: string;

  before(async () => {
    server = goldenTarget();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    dir = mkdtempSync(join(tmpdir(), 'loadlab-summary-'));
    const port = (server.address() as AddressInfo).port;
    for (const name of ['s1.js', 's2.js']) {
      const code = readFileSync(`${K6_GOLDEN}/${name}`, 'utf8').replaceAll(
        '127.0.0.1:18080',
        `127.0.0.1:${port}`,
      );
      writeFileSync(join(dir, name), code);
    }
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
    rmSync(dir, { recursive: true, force: true });
  });

  /** The run's stderr, for the warnings that go with a mode. */
  let lastStderr = '';

  async function summaryOf(script: string, mode: string): Promise<string> {
    const result = await runLoadlab([join(dir, script), '-q', `--summary-mode=${mode}`], {
      timeoutMs: 60_000,
    });
    // s1's thresholds on checks and http_req_failed fail by design (exit 99), as in k6.
    assert.equal(result.code, script === 's1.js' ? 99 : 0, result.stderr);
    assert.doesNotMatch(result.stderr, /not implemented/);
    lastStderr = result.stderr;
    return result.stdout;
  }

  /** What precedes the first line of text: k6 -q writes '\n' + a summary that starts with '\n'. */
  const lead = (text: string) => text.slice(0, text.search(/\S/));

  function assertSameLayout(ours: string, golden: string): void {
    const a = layoutOf(ours);
    const b = layoutOf(golden);
    assert.equal(firstDifference(a, b), undefined);
  }

  it('full mode on s1.js: TOTAL RESULTS, then SCENARIO: main with its nested groups (out_full.txt)', async () => {
    const stdout = await summaryOf('s1.js', 'full');
    const golden = readFileSync(`${K6_GOLDEN}/out_full.txt`, 'utf8');
    assertSameLayout(stdout, golden);
    assert.equal(JSON.stringify(lead(stdout)), JSON.stringify(lead(golden)));
    // Counts that do not depend on timing: a group holds only the samples of exactly its path.
    assert.match(stdout, /\n {4}↳ GROUP: Login page \n[\s\S]*\n {6}http_reqs\.+: 6 /);
    assert.match(stdout, /\n {6}↳ GROUP: Submit \n[\s\S]*\n {8}http_reqs\.+: 6 /);
    assert.match(stdout, /█ SCENARIO: main \n\n {4}checks_total\.+: 30 /);
  });

  it('full mode on s2.js: a top-level GROUP: G1 for the default scenario, no SCENARIO (out2.txt)', async () => {
    const stdout = await summaryOf('s2.js', 'full');
    assertSameLayout(stdout, summaryPart(readFileSync(`${K6_GOLDEN}/out2.txt`, 'utf8')));
  });

  it('legacy mode on s1.js: the check tree, then every metric with threshold marks (out_legacy.txt)', async () => {
    const stdout = await summaryOf('s1.js', 'legacy');
    const golden = readFileSync(`${K6_GOLDEN}/out_legacy.txt`, 'utf8');
    assertSameLayout(stdout, golden);
    assert.equal(JSON.stringify(lead(stdout)), JSON.stringify(lead(golden)));
    // k6 v1.3's warning (internal/cmd/run.go), logged once before the run starts.
    const warning =
      'msg="The \\"legacy\\" summary mode has been deprecated, and will be removed by k6 v2.0. ' +
      'Please, migrate to either \\"compact\\" or \\"full\\" as soon as possible."';
    assert.equal(lastStderr.split(warning).length - 1, 1, lastStderr);
    assert.match(lastStderr, /^time="[^"]+" level=warning msg="The \\"legacy\\" summary mode/);
  });

  it('compact mode on s1.js keeps its layout (out_compact.txt)', async () => {
    const stdout = await summaryOf('s1.js', 'compact');
    assertSameLayout(stdout, summaryPart(readFileSync(`${K6_GOLDEN}/out_compact.txt`, 'utf8')));
  });
});
