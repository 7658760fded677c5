// The live dashboard, driven through its Output methods with real k6 samples, opened in real Chromium.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import type { ThresholdStates } from '../../runner/types.js';
import { chartPixels, collectErrors } from '../browser.test.js';
import { artifactPath, launchChromium, samplesFromNdjson, SAMPLES_DIR } from '../test-helpers.js';
import { createDashboardOutput, parsePeriod, thresholdSources } from './dashboard-output.js';

// Page-side globals used inside page.evaluate / waitForFunction callbacks (run in Chromium, not Node).
declare const window: { __loadlab: { snapshots: number } };
declare const document: {
  querySelectorAll(
    s: string,
  ): ArrayLike<{ textContent: string | null }> & Iterable<{ textContent: string | null }>;
  getElementById(id: string): { textContent: string | null } | null;
};

const OPTIONS = {
  thresholds: {
    http_req_failed: ['rate<0.5'],
    http_req_duration: [{ threshold: 'p(95)<1500', abortOnFail: false }, 'avg<800'],
    'http_req_duration{endpoint:health}': 'p(95)<500',
  },
};

function context(dir: string, warnings: string[], port = 0) {
  return {
    scriptPath: '/x/k6/scenarios/smoke/api-health.js',
    options: OPTIONS,
    argument: '',
    env: { LT_SCENARIO: 'smoke' },
    warn: (m: string) => warnings.push(m),
    host: '127.0.0.1',
    port,
    period: 200,
    exportPath: join(dir, 'nested', 'report.html'),
  };
}

const allOk = (ok: boolean): ThresholdStates => ({
  http_req_failed: { 'rate<0.5': { ok } },
  http_req_duration: { 'p(95)<1500': { ok: true }, 'avg<800': { ok: true } },
  'http_req_duration{endpoint:health}': { 'p(95)<500': { ok: true } },
});

describe('live dashboard output', function () {
  this.timeout(60_000);
  let dir: string;
  let browser: Browser | undefined;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-live-'));
  });
  after(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('parses periods and every k6 threshold form', () => {
    assert.equal(parsePeriod('10s'), 10_000);
    assert.equal(parsePeriod('500ms'), 500);
    assert.equal(parsePeriod('1m'), 60_000);
    assert.equal(parsePeriod('soon'), undefined);
    assert.deepEqual(
      thresholdSources(OPTIONS.thresholds).map((t) => `${t.metric} ${t.source}`),
      [
        'http_req_failed rate<0.5',
        'http_req_duration p(95)<1500',
        'http_req_duration avg<800',
        'http_req_duration{endpoint:health} p(95)<500',
      ],
    );
  });

  it('streams snapshots to a browser, flips thresholds, exports the final page and closes with the tab open', async () => {
    const warnings: string[] = [];
    const out = createDashboardOutput(context(dir, warnings));
    await out.start();
    assert.ok(out.url?.startsWith('http://127.0.0.1:'));
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${out.url}/`); // redirects to /ui/
    assert.ok(page.url().endsWith('/ui/'));
    await page.waitForSelector('table.thresholds');
    assert.equal(await page.locator('table.thresholds .badge.pending').count(), 4, 'nothing evaluated yet');

    const samples = samplesFromNdjson(join(SAMPLES_DIR, 'points-head.ndjson'), Date.now() - 3000);
    const half = Math.floor(samples.length / 2);
    out.addSamples(samples.slice(0, half));
    out.setThresholds(allOk(true));
    await page.waitForFunction(() => document.querySelectorAll('table.thresholds .badge.pass').length === 4);
    out.addSamples(samples.slice(half));
    // Wait for a periodic snapshot carrying every request of the file.
    const total = samples.filter((s) => s.metric === 'http_reqs').length;
    await page.waitForFunction(
      (n) =>
        [...document.querySelectorAll('table.endpoints tbody tr td:nth-child(2)')].reduce(
          (a, td) => a + Number(td.textContent),
          0,
        ) === n,
      total,
    );
    const snapshots = await page.evaluate(() => window.__loadlab.snapshots);
    assert.ok(snapshots >= 2, `SSE snapshots arrived (${snapshots})`);
    const pixels = await chartPixels(page);
    assert.equal(pixels.length, 3);
    for (const n of pixels) assert.ok(n > 100, `live chart painted (${n} pixels)`);
    assert.equal(
      await page.locator('table.checks tbody tr').count(),
      new Set(samples.filter((s) => s.metric === 'checks').map((s) => `${s.tags.group} ${s.tags.check}`))
        .size,
    );

    out.setThresholds(allOk(false));
    await page.waitForFunction(
      () => document.querySelectorAll('table.thresholds tr.bad .badge.fail').length === 1,
    );
    assert.match((await page.locator('h1').textContent()) ?? '', /FAIL/);
    await page.screenshot({ path: artifactPath('live-dashboard.png'), fullPage: true });

    // stop() must return although the tab still holds the SSE connection open.
    await out.stop();
    await page.waitForFunction(() => document.getElementById('live-status')?.textContent === 'run finished');
    const exported = await readFile(join(dir, 'nested', 'report.html'), 'utf8');
    assert.match(exported, /<title>Live: smoke — FAIL<\/title>/);
    assert.match(exported, /"live":false/);
    await assert.rejects(fetch(`${out.url}/`), 'server closed');
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
  });

  it('warns and carries on when the port is taken, still exporting', async () => {
    const busy: Server = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as AddressInfo).port;
    const warnings: string[] = [];
    const out = createDashboardOutput({
      ...context(dir, warnings, port),
      exportPath: join(dir, 'busy.html'),
    });
    await out.start();
    assert.equal(out.url, undefined);
    assert.match(warnings.join('\n'), new RegExp(`port ${port} is in use; continuing without the dashboard`));
    out.addSamples(samplesFromNdjson(join(SAMPLES_DIR, 'points-head.ndjson'), Date.now()));
    await out.stop();
    assert.match(await readFile(join(dir, 'busy.html'), 'utf8'), /<title>Live: smoke — PASS<\/title>/);
    await new Promise((r) => busy.close(r));
  });

  it('lets the process exit after stop() although a client is still connected', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(dirname(fileURLToPath(import.meta.url)), 'fixtures-exit-child.ts')],
      {
        stdio: ['pipe', 'pipe', 'inherit'],
      },
    );
    const exited = once(child, 'exit');
    let stdout = '';
    child.stdout.on('data', (d) => (stdout += d));
    while (!stdout.includes('\n')) await once(child.stdout, 'data');
    const url = stdout.trim();
    // A browser-like client holding the event stream open.
    const res = await fetch(`${url}/events`);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    assert.match(Buffer.from(first?.value ?? []).toString(), /retry: |event: snapshot/);
    child.stdin.write('stop\n');
    // Bounded wait: a dashboard that held the process open fails here (and the child is killed).
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    const [code] = await exited;
    clearTimeout(timer);
    assert.equal(code, 0, 'the child exited by itself');
    assert.match(stdout, /stopped/);
    await reader?.cancel().catch(() => undefined);
  });
});
