// The live dashboard during a real run: the Node runner (bin/loadlab.js) runs the suite's smoke bundle
// against the real sandbox with K6_WEB_DASHBOARD=true while Chromium watches; then the files of the
// same run feed the report generator.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { bundleSuite } from '../../k6/build.js';
import { createSandboxApp, listen, type StartedServer } from '@loadlab/services';
import { chartPixels, collectErrors } from '../browser.e2e.test.js';
import { buildScenarioReport } from '../model.js';
import { artifactPath, launchChromium } from '../../devkit/chromium.js';
import { startProcess, untilOutput } from '../../devkit/script-process.js';

declare const window: {
  __loadlab: {
    snapshots: number;
    renders: number;
    updates: number;
    charts: { plot: { data: unknown[][]; __id?: number } }[];
  };
};
declare const document: {
  querySelectorAll(s: string): ArrayLike<unknown>;
  getElementById(id: string): { textContent: string | null } | null;
};

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CREDENTIALS = { demoEmail: 'live@loadlab.local', demoPassword: 'live-e2e-secret' };

describe('live dashboard during a real Node runner run (e2e)', function () {
  this.timeout(120_000);
  let dir: string;
  let sandbox: StartedServer;
  let browser: Browser | undefined;

  before(async function () {
    if (!existsSync(join(REPO, 'bin', 'loadlab.js'))) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'loadlab-live-e2e-'));
    await bundleSuite([join(REPO, 'k6', 'scenarios', 'smoke', 'api-health.ts')], join(dir, 'dist'));
    sandbox = await listen(
      createSandboxApp({
        ...CREDENTIALS,
        tokenSecret: 'live',
        tokenTtlSeconds: 600,
        faults: { enabled: false, latencyMs: 0, errorRate: 0 },
      }),
      0,
      '127.0.0.1',
    );
  });
  after(async () => {
    await browser?.close();
    await sandbox?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('updates live over SSE, turns thresholds green, exports, and the runner exits with the tab open', async () => {
    const bundle = join(dir, 'dist', 'scenarios', 'smoke', 'api-health.js');
    assert.ok(existsSync(bundle), 'bundle built');
    // Chromium first: on a loaded machine its start took seconds of the run the test watches.
    browser = await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = collectErrors(page);
    // cwd in the temp dir: the suite's handleSummary writes results/… relative to it.
    const child = startProcess(
      process.execPath,
      [
        join(REPO, 'bin', 'loadlab.js'),
        'run',
        bundle,
        '--vus',
        '2',
        '--duration',
        '10s',
        '--out',
        `json=${join(dir, 'points.ndjson')}`,
      ],
      {
        cwd: dir,
        env: {
          HOME: process.env.HOME ?? '/tmp',
          BASE_URL: sandbox.url,
          DEMO_EMAIL: CREDENTIALS.demoEmail,
          DEMO_PASSWORD: CREDENTIALS.demoPassword,
          LT_RUN_SUMMARY: join(dir, 'summary.json'),
          K6_WEB_DASHBOARD: 'true',
          K6_WEB_DASHBOARD_PORT: '0',
          K6_WEB_DASHBOARD_PERIOD: '500ms',
          K6_WEB_DASHBOARD_EXPORT: join(dir, 'report.html'),
        },
        killAfterMs: 90_000,
      },
    );
    await untilOutput(child, /web dashboard: (http:\/\/\S+)/, 90_000);
    const stdout = child.out();
    const url = (/web dashboard: (http:\/\/\S+)/.exec(stdout) as RegExpExecArray)[1] as string;

    await page.goto(`${url}/`);
    await page.waitForFunction(() => window.__loadlab.snapshots >= 3, undefined, { timeout: 60_000 });
    // Once the charts are drawn, later snapshots of the run extend them in place: same uPlot instances,
    // more points, no full render.
    await page.waitForFunction(() => window.__loadlab.charts.length === 4, undefined, { timeout: 60_000 });
    const drawn = await page.evaluate(() => {
      const s = window.__loadlab;
      s.charts.forEach((c, i) => (c.plot.__id = i + 1));
      return { renders: s.renders, snapshots: s.snapshots, points: s.charts[0]?.plot.data[0]?.length ?? 0 };
    });
    await page.waitForFunction(
      (d) =>
        window.__loadlab.snapshots >= d.snapshots + 2 &&
        (window.__loadlab.charts[0]?.plot.data[0]?.length ?? 0) > d.points,
      drawn,
      { timeout: 60_000 },
    );
    const extended = await page.evaluate(() => ({
      renders: window.__loadlab.renders,
      updates: window.__loadlab.updates,
      ids: window.__loadlab.charts.map((c) => c.plot.__id),
    }));
    assert.deepEqual(extended.ids, [1, 2, 3, 4], 'the same uPlot instances');
    assert.equal(extended.renders, drawn.renders, 'no full render once the charts are drawn');
    assert.ok(extended.updates >= 2, `snapshots applied in place (${extended.updates})`);
    // The runner evaluates thresholds every 2 s and hands the verdicts to the dashboard: the smoke
    // profile's seven and the suite's gate (completed_iterations count>0).
    await page.waitForFunction(
      () => document.querySelectorAll('table.thresholds .badge.pass').length === 8,
      undefined,
      { timeout: 60_000 },
    );
    await page.waitForFunction(
      () => document.querySelectorAll('table.endpoints tbody tr').length === 3,
      undefined,
      { timeout: 60_000 },
    );
    const pixels = await chartPixels(page);
    assert.equal(pixels.length, 4);
    for (const n of pixels) assert.ok(n > 100, `live chart painted (${n} pixels)`);
    await page.screenshot({ path: artifactPath('live-dashboard-run.png'), fullPage: true });

    const code = await child.exit; // with the tab still connected
    assert.equal(code, 0, child.ending());
    await page.waitForFunction(() => document.getElementById('live-status')?.textContent === 'run finished');
    assert.deepEqual(
      await page.evaluate(() => [window.__loadlab.renders, window.__loadlab.charts.map((c) => c.plot.__id)]),
      [drawn.renders, [1, 2, 3, 4]],
      'the whole run after the first chart drawn: in place',
    );
    assert.deepEqual(errors, []);
    assert.match(await readFile(join(dir, 'report.html'), 'utf8'), /<title>Live: api-health — PASS<\/title>/);

    // The same run's files through the report generator.
    const report = await buildScenarioReport({
      scenario: 'smoke',
      summaryPath: join(dir, 'summary.json'),
      seriesPath: join(dir, 'points.ndjson'),
    });
    assert.equal(report.passed, true);
    assert.deepEqual(report.endpoints.map((e) => e.name).sort(), [
      'GET /api/users',
      'GET /health',
      'POST /api/auth/login',
    ]);
    assert.equal(
      report.endpoints.reduce((n, e) => n + e.count, 0),
      report.totals.requests,
    );
    assert.equal(report.thresholds.length, 8);
    assert.ok(report.thresholds.every((t) => t.observed !== undefined));
  });
});
