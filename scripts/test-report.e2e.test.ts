// test:report end to end with a stand-in for scripts/run-k6.sh (the engines are other parts of the
// project): real health check, real files under results/runs, real report generation.
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runScript } from '../devkit/command.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const FAKE = join(ROOT, 'scripts', 'fixtures', 'report-fake-engine.mjs');
const BUNDLES = [
  'scenarios/smoke/api-health',
  'scenarios/load/api-auth',
  'scenarios/load/api-users',
  'scenarios/load/mixed-traffic',
  'journeys/login-flow',
  'journeys/authenticated-user',
  'scenarios/spike/api-spike',
];

async function run(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runScript('scripts/test-report.ts', args, {
    cwd: ROOT,
    env: { ...process.env, ...env },
  });
  return { code: code ?? 1, stdout, stderr };
}

describe('test:report', function () {
  this.timeout(60_000);
  let dir: string;
  let server: Server;
  let baseUrl: string;
  let env: Record<string, string>;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-test-report-'));
    for (const b of BUNDLES) {
      await mkdir(dirname(join(dir, 'dist', `${b}.js`)), { recursive: true });
      await writeFile(join(dir, 'dist', `${b}.js`), '// bundle\n');
    }
    server = createServer((req, res) =>
      res.writeHead(req.url === '/health' ? 200 : 404).end('{"status":"ok"}'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    env = {
      BASE_URL: baseUrl,
      LT_REPORT_ENGINE: FAKE,
      LT_REPORT_DIST: join(dir, 'dist'),
      LT_FAKE_CALLS: join(dir, 'calls.ndjson'),
    };
  });
  after(async () => {
    await new Promise((r) => server.close(r));
    await rm(dir, { recursive: true, force: true });
  });

  it('says in one line that the services are down and exits 2', async () => {
    const down = await run(['--results', join(dir, 'unused')], { ...env, BASE_URL: 'http://127.0.0.1:9' });
    assert.equal(down.code, 2);
    assert.equal(down.stderr.trim().split('\n').length, 1);
    assert.match(down.stderr, /http:\/\/127\.0\.0\.1:9\/health does not answer/);
  });

  it('refuses in one line when bundles or the engine wrapper are missing', async () => {
    const noBundles = await run(['--results', join(dir, 'unused')], {
      ...env,
      LT_REPORT_DIST: join(dir, 'nowhere'),
    });
    assert.equal(noBundles.code, 2);
    assert.match(
      noBundles.stderr,
      /^test:report: no bundle in .*nowhere for smoke, load-auth, .*spike; run npm run build:k6 first\n$/,
    );
    const noEngine = await run(['--results', join(dir, 'unused')], {
      ...env,
      LT_REPORT_ENGINE: join(dir, 'run-k6.sh'),
    });
    assert.equal(noEngine.code, 2);
    assert.match(noEngine.stderr, /^test:report: engine wrapper .*run-k6\.sh not found\n$/);
  });

  it('runs the seven scenarios, writes the report, and exits non-zero when one crosses a threshold', async () => {
    const results = join(dir, 'results');
    const r = await run(['--quick', '--results', results], { ...env, LT_FAKE_FAIL: 'spike' });
    assert.equal(r.code, 1, r.stderr);
    const calls = (await readFile(env.LT_FAKE_CALLS as string, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    assert.deepEqual(
      calls.map((c) => c.scenario),
      ['smoke', 'load-auth', 'load-users', 'mixed-traffic', 'login-flow', 'authenticated-user', 'spike'],
    );
    for (const c of calls) {
      assert.equal(c.profile, 'smoke');
      assert.equal(c.resultsDir, results, 'summary-latest.json lands in --results too');
      assert.deepEqual(c.args.slice(1, 3), ['--out', `json=${c.summary.replace(/\.json$/, '.ndjson')}`]);
      assert.deepEqual(c.args.slice(3), ['--vus', '2', '--duration', '5s']);
      assert.match(c.summary, /runs\/\d{8}T\d{6}Z-[a-z-]+\.json$/);
    }
    assert.match(
      r.stdout,
      /\[1\/7\] smoke: started\n\[1\/7\] smoke: PASS in \d+\.\ds on Node runner \(loadlab 0\.0\.0-test\)\n/,
    );
    assert.match(r.stdout, /^test:report: FAIL on Node runner \(loadlab 0\.0\.0-test\); /m);
    assert.match(r.stdout, /\[7\/7\] spike: FAIL \(thresholds crossed\)/);
    const md = await readFile(join(results, 'REPORT.md'), 'utf8');
    assert.match(md, /^# Load test report \(profile smoke\) — FAIL/);
    assert.match(md, /## spike — ❌ FAIL/);
    assert.match(md, /## smoke — ✅ PASS\n\nEngine: Node runner \(loadlab 0\.0\.0-test\)\./);
    assert.match(md, /\| smoke \| ✅ PASS \| Node runner \(loadlab 0\.0\.0-test\) \|/);
    const html = await readFile(join(results, 'report', 'index.html'), 'utf8');
    assert.match(html, /<title>Load test report \(profile smoke\) — FAIL<\/title>/);
    assert.match(
      await readFile(join(results, 'junit.xml'), 'utf8'),
      /<testsuite name="spike" tests="18" failures="1"/,
    );
    const runs = await readdir(join(results, 'runs'));
    // summary-latest.json has one writer, the suite's handleSummary (the stand-in engine has none):
    // the report step must not write it a second time, as the original project did.
    assert.ok(
      !(await readdir(results)).includes('summary-latest.json'),
      'test:report wrote summary-latest.json',
    );
    assert.equal(runs.filter((f) => f.endsWith('.json')).length, 7);
    assert.equal(runs.filter((f) => f.endsWith('.ndjson')).length, 7);
  });

  it('compares with the previous run and reports a crashed scenario as FAIL', async () => {
    const results = join(dir, 'results');
    // Run ids have one-second resolution; make sure this run gets a newer one than the previous test's.
    await new Promise((r) => setTimeout(r, 1100));
    const r = await run(['--results', results], {
      ...env,
      LT_FAKE_CRASH: 'login-flow',
      LT_REPORT_QUICK: 'true',
    });
    assert.equal(r.code, 1);
    assert.match(
      r.stdout,
      /\[5\/7\] login-flow: FAIL \(exit 107: boom: script exception; log .*login-flow\.log\)/,
    );
    assert.match(r.stdout, /compared with \d{8}T\d{6}Z/);
    const md = await readFile(join(results, 'REPORT.md'), 'utf8');
    assert.match(
      md,
      /## login-flow — ❌ FAIL\n\nEngine: Node runner \(loadlab 0\.0\.0-test\)\.\n\n- no summary was written \(the run did not finish\)\n- engine exited with code 107/,
    );
    assert.match(md, /### Compared with run \d{8}T\d{6}Z/);
  });
});
