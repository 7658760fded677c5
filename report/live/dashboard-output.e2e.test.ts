// The live dashboard, driven through its Output methods with real k6 samples, opened in real Chromium.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import type { ThresholdStates } from '../../runner/contracts.js';
import { chartPixels, collectErrors } from '../browser.e2e.test.js';
import { buildReport, buildScenarioReport, type Report, type ScenarioReport } from '../model.js';
import { renderHtml } from '../render/html.js';
import { artifactPath, launchChromium } from '../../devkit/chromium.js';
import { samplesFromNdjson, SAMPLES_DIR } from '../test-helpers.js';
import { startScript, untilReady } from '../../devkit/script-process.js';
import { createDashboardOutput, parsePeriod, thresholdSources } from './dashboard-output.js';

// Page-side globals used inside page.evaluate / waitForFunction callbacks (run in Chromium, not Node).
interface PageNode {
  textContent: string | null;
  __kept?: boolean;
}
interface LiveChart {
  scenario: string;
  plot: { data: unknown[][]; cursor: { left?: number }; __id?: number };
}
declare const window: {
  __loadlab: { snapshots: number; renders: number; updates: number; charts: LiveChart[] };
  getSelection(): { toString(): string; removeAllRanges(): void; addRange(r: unknown): void } | null;
};
declare const document: {
  querySelectorAll(s: string): ArrayLike<PageNode> & Iterable<PageNode>;
  querySelector(s: string): PageNode | null;
  getElementById(id: string): { textContent: string | null } | null;
  createRange(): { selectNodeContents(n: PageNode): void };
  activeElement: PageNode | null;
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
    exportPath: join(dir, 'report.html'),
  };
}

const allOk = (ok: boolean): ThresholdStates => ({
  http_req_failed: { 'rate<0.5': { ok } },
  http_req_duration: { 'p(95)<1500': { ok: true }, 'avg<800': { ok: true } },
  'http_req_duration{endpoint:health}': { 'p(95)<500': { ok: true } },
});

/** A stand-in for the dashboard's server whose snapshots the test chooses: any report model, any time. */
async function snapshotServer(first: Report) {
  const clients = new Set<ServerResponse>();
  let connected!: () => void;
  const connectedPromise = new Promise<void>((r) => (connected = r));
  const server = createServer((req, res) => {
    if (req.url === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(renderHtml(first, { live: true, eventsPath: '/events' }));
    } else if (req.url === '/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': connected\n\n');
      clients.add(res);
      connected();
    } else {
      res.writeHead(204).end(); // favicon
    }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
    connected: connectedPromise,
    push(report: Report) {
      for (const res of clients) res.write(`event: snapshot\ndata: ${JSON.stringify(report)}\n\n`);
    },
    async close() {
      for (const res of clients) res.end();
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
  };
}

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
    assert.equal(pixels.length, 4);
    for (const n of pixels) assert.ok(n > 100, `live chart painted (${n} pixels)`);
    // The dashboard runs inside the Node runner, so it names that engine and its version.
    const { version } = JSON.parse(await readFile('runner/package.json', 'utf8')) as { version: string };
    assert.equal(await page.locator('p.engine').textContent(), `Engine: Node runner (loadlab ${version}).`);
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
    const exported = await readFile(join(dir, 'report.html'), 'utf8');
    assert.match(exported, /<title>Live: smoke — FAIL<\/title>/);
    assert.match(exported, /"live":false/);
    await assert.rejects(fetch(`${out.url}/`), 'server closed');
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
  });

  it('makes no folder for its export, as k6: a missing one is a warning in Go words', async () => {
    const warnings: string[] = [];
    const exportPath = join(dir, 'missing', 'report.html');
    const out = createDashboardOutput({ ...context(dir, warnings), exportPath });
    await out.start();
    out.addSamples(samplesFromNdjson(join(SAMPLES_DIR, 'points-head.ndjson'), Date.now() - 3000));
    await out.stop();
    assert.deepEqual(warnings, [
      `web dashboard: cannot export the report: open ${exportPath}: no such file or directory`,
    ]);
    assert.equal(existsSync(dirname(exportPath)), false);
  });

  it('applies snapshots of the same shape in place: same uPlot instances, new points, new text', async () => {
    const warnings: string[] = [];
    const out = createDashboardOutput({ ...context(dir, warnings), exportPath: join(dir, 'in-place.html') });
    await out.start();
    // Samples before the tab opens: the page is drawn with its charts, and every snapshot has that shape.
    const file = join(SAMPLES_DIR, 'points-head.ndjson');
    const start = Date.now() - 20_000;
    const first = samplesFromNdjson(file, start);
    const requests = first.filter((s) => s.metric === 'http_reqs').length;
    out.addSamples(first);
    out.setThresholds(allOk(true));
    browser ??= await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = collectErrors(page);
    await page.goto(`${out.url}/ui/`);
    await page.waitForFunction(() => window.__loadlab.charts.length === 4 && window.__loadlab.snapshots >= 1);

    // A reader focuses a link, selects a heading and hovers the first chart.
    await page.locator('table.overview a').focus();
    await page.evaluate(() => {
      const range = document.createRange();
      range.selectNodeContents(document.querySelector('section.scenario h2') as PageNode);
      window.getSelection()?.removeAllRanges();
      window.getSelection()?.addRange(range);
    });
    await page.locator('.chart .u-over').first().hover();
    await page.waitForFunction(() => (window.__loadlab.charts[0]?.plot.cursor.left ?? -1) >= 0);

    const read = () =>
      page.evaluate(() => {
        const s = window.__loadlab;
        return {
          renders: s.renders,
          updates: s.updates,
          ids: s.charts.map((c) => c.plot.__id),
          points: s.charts.map((c) => c.plot.data.map((d) => d.length)),
          meta: document.querySelector('p.meta')?.textContent,
          requests: document.querySelector('table.overview tbody td:nth-child(5)')?.textContent,
          overviewKept: document.querySelector('table.overview')?.__kept === true,
          focused: document.activeElement?.textContent,
          selected: window.getSelection()?.toString(),
          cursor: s.charts[0]?.plot.cursor.left ?? -1,
        };
      });
    // Mark the live objects: a full render would replace them with unmarked ones.
    await page.evaluate(() => {
      window.__loadlab.charts.forEach((c, i) => (c.plot.__id = i + 1));
      (document.querySelector('table.overview') as PageNode).__kept = true;
    });
    const before = await read();
    assert.equal(before.renders, 1, 'one full render: the page itself');
    assert.equal(before.requests, String(requests));
    assert.equal(before.focused, 'smoke');
    assert.match(before.selected ?? '', /^smoke PASS/);

    // The same requests 5 s later: the series gains seconds, the totals double; the shape stays.
    out.addSamples(samplesFromNdjson(file, start + 5000));
    await page.waitForFunction(
      (n) => document.querySelector('table.overview tbody td:nth-child(5)')?.textContent === String(n),
      2 * requests,
    );
    const after = await read();
    assert.deepEqual(after.ids, [1, 2, 3, 4], 'the same uPlot instances');
    assert.equal(after.renders, 1, 'no full render');
    assert.ok(after.updates > before.updates, `updated in place (${before.updates} -> ${after.updates})`);
    for (const [i, lengths] of after.points.entries()) {
      const was = before.points[i]?.[0] ?? 0;
      assert.ok((lengths[0] ?? 0) >= was + 5, `chart ${i} got new points (${was} -> ${lengths[0]})`);
      assert.ok(
        lengths.every((n) => n === lengths[0]),
        `chart ${i}: every series as long as the time axis`,
      );
    }
    assert.notEqual(after.meta, before.meta, 'header shows the new snapshot time');
    assert.match(after.meta ?? '', /updated \d{4}-\d\d-\d\dT/);
    assert.equal(after.requests, String(2 * requests));
    assert.ok(after.overviewKept, 'the overview table was patched, not replaced');
    assert.equal(after.focused, 'smoke', 'focus kept');
    assert.equal(after.selected, before.selected, 'text selection kept');
    assert.ok(after.cursor >= 0, 'chart cursor kept');
    for (const n of await chartPixels(page)) assert.ok(n > 100, `chart painted after setData (${n} pixels)`);

    await out.stop();
    await page.waitForFunction(() => document.getElementById('live-status')?.textContent === 'run finished');
    assert.deepEqual(
      await page.evaluate(() => window.__loadlab.charts.map((c) => c.plot.__id)),
      [1, 2, 3, 4],
    );
    assert.equal(await page.evaluate(() => window.__loadlab.renders), 1);
    await page.close();
    assert.deepEqual(errors, []);
    assert.deepEqual(warnings, []);
  });

  it('rebuilds the page when a snapshot brings a new scenario, a new series or another order', async () => {
    const sample = await buildScenarioReport({
      scenario: 'sample',
      summaryPath: join(SAMPLES_DIR, 'summary-pass.json'),
      seriesPath: join(SAMPLES_DIR, 'points-head.ndjson'),
    });
    const withRequests = (s: ScenarioReport, requests: number, name = s.scenario): ScenarioReport => ({
      ...s,
      scenario: name,
      totals: { ...s.totals, requests },
    });
    const live = (scenarios: ScenarioReport[]) => buildReport(scenarios, { title: 'Live: shapes' });
    const server = await snapshotServer(live([sample]));
    browser ??= await launchChromium();
    const page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
    const errors = collectErrors(page);
    try {
      await page.goto(server.url);
      await server.connected;
      await page.waitForFunction(() => window.__loadlab.renders === 1);
      let sent = 0;
      const counts = () =>
        page.evaluate(() => ({
          renders: window.__loadlab.renders,
          updates: window.__loadlab.updates,
          ids: window.__loadlab.charts.map((c) => c.plot.__id ?? 0),
          sections: [...document.querySelectorAll('section.scenario h2')].map((h) => h.textContent),
          requests: [...document.querySelectorAll('table.overview tbody td:nth-child(5)')].map(
            (td) => td.textContent,
          ),
        }));
      const mark = () =>
        page.evaluate(() => window.__loadlab.charts.forEach((c, i) => (c.plot.__id = i + 1)));
      await mark();

      // Same shape: in place.
      server.push(live([withRequests(sample, 111)]));
      await page.waitForFunction((n) => window.__loadlab.snapshots === n, ++sent);
      assert.deepEqual(await counts(), {
        renders: 1,
        updates: 1,
        ids: [1, 2, 3, 4],
        sections: ['sample PASS'],
        requests: ['111'],
      });

      // A new scenario: full render, with new chart instances for both.
      server.push(live([withRequests(sample, 222), withRequests(sample, 5, 'second')]));
      await page.waitForFunction((n) => window.__loadlab.snapshots === n, ++sent);
      assert.deepEqual(await counts(), {
        renders: 2,
        updates: 1,
        ids: [0, 0, 0, 0, 0, 0, 0, 0],
        sections: ['sample PASS', 'second PASS'],
        requests: ['222', '5'],
      });
      await mark();

      // That shape again: in place.
      server.push(live([withRequests(sample, 333), withRequests(sample, 6, 'second')]));
      await page.waitForFunction((n) => window.__loadlab.snapshots === n, ++sent);
      const again = await counts();
      assert.deepEqual([again.renders, again.updates, again.ids], [2, 2, [1, 2, 3, 4, 5, 6, 7, 8]]);
      assert.deepEqual(again.requests, ['333', '6']);

      // A new series on a chart (one more latency threshold line): full render.
      const limited = {
        ...sample,
        latencyLimits: [...sample.latencyLimits, { label: 'p(99)<900', value: 900 }],
      };
      server.push(live([withRequests(limited, 444), withRequests(sample, 7, 'second')]));
      await page.waitForFunction((n) => window.__loadlab.snapshots === n, ++sent);
      const limitedShown = await counts();
      assert.deepEqual(
        [limitedShown.renders, limitedShown.updates, limitedShown.ids],
        [3, 2, [0, 0, 0, 0, 0, 0, 0, 0]],
      );
      assert.equal(
        await page.evaluate(() => window.__loadlab.charts[2]?.plot.data.length),
        5 + sample.latencyLimits.length,
        'latency chart: time, p50, p95, p99 and one line per threshold',
      );
      await mark();

      // The scenarios in another order: full render.
      server.push(live([withRequests(sample, 8, 'second'), withRequests(limited, 555)]));
      await page.waitForFunction((n) => window.__loadlab.snapshots === n, ++sent);
      assert.deepEqual(await counts(), {
        renders: 4,
        updates: 2,
        ids: [0, 0, 0, 0, 0, 0, 0, 0],
        sections: ['second PASS', 'sample PASS'],
        requests: ['8', '555'],
      });
      for (const n of await chartPixels(page)) assert.ok(n > 100, `chart painted (${n} pixels)`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
      await server.close();
    }
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
    // Bounded: a dashboard that held the process open fails below (and the child is killed).
    const child = startScript(join(dirname(fileURLToPath(import.meta.url)), 'fixtures-exit-child.ts'), {
      stdin: 'pipe',
      killAfterMs: 60_000,
    });
    const url = await untilReady(
      child,
      'the dashboard URL on stdout',
      async () => (child.out().includes('\n') ? child.out().trim() : undefined),
      30_000,
    );
    // A browser-like client holding the event stream open.
    const res = await fetch(`${url}/events`);
    const reader = res.body?.getReader();
    const first = await reader?.read();
    assert.match(Buffer.from(first?.value ?? []).toString(), /retry: |event: snapshot/);
    child.child.stdin!.write('stop\n');
    const timer = setTimeout(() => child.child.kill('SIGKILL'), 20_000);
    const code = await child.exit;
    clearTimeout(timer);
    assert.equal(code, 0, 'the child exited by itself');
    assert.match(child.out(), /stopped/);
    await reader?.cancel().catch(() => undefined);
  });
});
