// The HTML report in real Chromium: no console errors, charts drawn from data, tables complete.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { generateReports, type Generated } from './generate.js';
import { artifactPath, launchChromium } from '../devkit/chromium.js';
import { SAMPLES_DIR } from './test-helpers.js';

// Page-side globals used inside page.evaluate / waitForFunction callbacks (run in Chromium, not Node).
declare const DOMParser: new () => {
  parseFromString(
    text: string,
    type: string,
  ): {
    getElementsByTagName(tag: string): ArrayLike<{ getAttribute(name: string): string | null }>;
  };
};
declare const window: {
  __loadlab?: {
    renders: number;
    charts: {
      scenario: string;
      plot: { data: unknown[][]; axes: { _splits?: number[]; _values?: string[] }[] };
    }[];
  };
};

/** Non-transparent pixels of every chart canvas: proof the charts drew something. */
export async function chartPixels(page: Page): Promise<number[]> {
  return page.$$eval('.chart canvas', (canvases) =>
    canvases.map((c) => {
      const canvas = c as unknown as {
        width: number;
        height: number;
        getContext(k: '2d'): { getImageData(...a: number[]): { data: Uint8ClampedArray } };
      };
      const data = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height).data;
      let n = 0;
      for (let i = 3; i < data.length; i += 4) if ((data[i] as number) > 0) n++;
      return n;
    }),
  );
}

export function collectErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

describe('HTML report in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let dir: string;
  let generated: Generated;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-html-'));
    generated = await generateReports({
      inputs: [
        {
          scenario: 'sample',
          summaryPath: join(SAMPLES_DIR, 'summary-pass.json'),
          seriesPath: join(SAMPLES_DIR, 'points-head.ndjson'),
        },
        { scenario: 'summary-only', summaryPath: join(SAMPLES_DIR, 'summary-browser.json') },
      ],
      outDir: dir,
      previous: {
        runId: '20261122T110000Z',
        inputs: [
          {
            scenario: 'sample',
            summaryPath: join(SAMPLES_DIR, 'summary-pass.json'),
            seriesPath: join(SAMPLES_DIR, 'points-head.ndjson'),
          },
        ],
      },
    });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('renders tables and charts offline without console errors', async () => {
    const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    // Offline: any request leaving the file would fail the test.
    const requests: string[] = [];
    context.on('request', (r) => {
      if (!r.url().startsWith('file:')) requests.push(r.url());
    });
    const page = await context.newPage();
    const errors = collectErrors(page);
    await page.goto(pathToFileURL(generated.files.html).href);
    await page.waitForFunction(() => window.__loadlab?.renders === 1);
    const s = generated.report.scenarios[0];
    assert.ok(s);
    const sample = page.locator('section[data-scenario="sample"]');
    assert.equal(await sample.locator('table.thresholds tbody tr').count(), s.thresholds.length);
    assert.equal(await sample.locator('table.checks tbody tr').count(), 7);
    assert.equal(await sample.locator('table.endpoints tbody tr').count(), s.endpoints.length);
    assert.deepEqual(
      await sample.locator('table.endpoints tbody tr td:first-child').allTextContents(),
      s.endpoints.map((e) => e.name),
    );
    assert.equal(await page.locator('table.overview tbody tr').count(), 2);
    // Comparison: five run-wide rows plus four per endpoint, and a heading naming the previous run.
    assert.equal(await sample.locator('table.comparison tbody tr').count(), 5 + 4 * s.endpoints.length);
    assert.equal(await sample.locator('h3', { hasText: 'Compared with run 20261122T110000Z' }).count(), 1);
    assert.equal(await page.locator('section[data-scenario="summary-only"] table.comparison').count(), 0);
    assert.match((await page.locator('h1').textContent()) ?? '', /PASS/);
    // Charts: four for the scenario with a series (VUs, req/s, latency, errors), each fed with every
    // second of it, each painted.
    const points = await page.evaluate(() =>
      (window.__loadlab?.charts ?? []).map((c) => [c.scenario, c.plot.data[0]?.length ?? 0]),
    );
    assert.deepEqual(points, [
      ['sample', s.series?.t.length],
      ['sample', s.series?.t.length],
      ['sample', s.series?.t.length],
      ['sample', s.series?.t.length],
    ]);
    const pixels = await chartPixels(page);
    assert.equal(pixels.length, 4);
    for (const n of pixels) assert.ok(n > 100, `chart canvas painted (${n} pixels)`);
    assert.match(
      (await page.locator('section[data-scenario="summary-only"]').textContent()) ?? '',
      /No time series/,
    );
    // Observed values as a reader compares them: percentages with counts, empty metrics said so.
    const observedOf = (metric: string) =>
      sample.locator('table.thresholds tbody tr', { hasText: metric }).locator('td').nth(2).textContent();
    assert.equal(await observedOf('http_req_duration{endpoint:never}'), 'no samples');
    assert.equal(await observedOf('checks'), '100.00 % (147/147)');
    // The time axis counts whole seconds from the run's first second, on every chart.
    const ticks = await page.evaluate(() =>
      (window.__loadlab?.charts ?? []).map((c) => {
        const axis = c.plot.axes[0] ?? {};
        return { first: axis._values?.[0], whole: (axis._splits ?? []).every(Number.isInteger) };
      }),
    );
    assert.deepEqual(ticks, Array(4).fill({ first: '0s', whole: true }));
    // No cursor on any chart (a static page, a printout): each legend shows the series' peak, not '--'.
    const idle = await sample.locator('.u-legend .u-value').allTextContents();
    assert.ok(idle.length >= 4 + 3 + 1, idle.join(' | '));
    assert.deepEqual(
      idle.filter((v) => !/^(max \S|whole run, )/.test(v)),
      [],
      `legend values without a cursor: ${idle.join(' | ')}`,
    );
    // A threshold on an empty metric: k6's PASS becomes a grey NO DATA badge, counted above the sections.
    const noData = sample.locator('table.thresholds tbody tr', {
      hasText: 'http_req_duration{endpoint:never}',
    });
    assert.equal(await noData.locator('.badge.nodata').textContent(), 'NO DATA');
    assert.equal(await sample.locator('table.thresholds .badge.nodata').count(), 1);
    assert.match(
      (await page.locator('body > #app > p.nodata, p.nodata').first().textContent()) ?? '',
      /^1 threshold had no samples/,
    );
    assert.equal(await sample.locator('p.engine').textContent(), 'Engine: not recorded.');
    await page.screenshot({ path: artifactPath('report.png'), fullPage: true });
    await page.emulateMedia({ media: 'print' });
    // On paper (A4 minus margins, about 718 CSS px) every chart scales into the page instead of being cut off.
    await page.setViewportSize({ width: 718, height: 1000 });
    const overflow = await page
      .locator('.chart canvas')
      .evaluateAll((canvases) => canvases.map((c) => c.getBoundingClientRect().right));
    assert.equal(overflow.length, 4);
    for (const right of overflow)
      assert.ok(right <= 718, `chart fits the printed page (right edge ${right})`);
    await page.setViewportSize({ width: 1200, height: 900 });
    await page.pdf({ path: artifactPath('report-print.pdf') });
    assert.deepEqual(errors, []);
    assert.deepEqual(requests, []);
    await context.close();
  });

  it('writes JUnit XML that a real XML parser accepts', async () => {
    const page = await browser.newPage();
    const xml = await readFile(generated.files.junit, 'utf8');
    const parsed = await page.evaluate((text) => {
      const doc = new DOMParser().parseFromString(text, 'application/xml');
      return {
        errors: doc.getElementsByTagName('parsererror').length,
        suites: doc.getElementsByTagName('testsuite').length,
        cases: doc.getElementsByTagName('testcase').length,
        firstName: doc.getElementsByTagName('testcase')[0]?.getAttribute('name'),
      };
    }, xml);
    const expectedCases = generated.report.scenarios.reduce(
      (n, s) => n + s.thresholds.length + s.checks.length,
      0,
    );
    assert.deepEqual(parsed, { errors: 0, suites: 2, cases: expectedCases, firstName: 'checks: rate>0.99' });
    await page.close();
  });
});
