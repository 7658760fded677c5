// k6/browser module against real Chromium and a local node:http site (login -> dashboard), with a
// fake VuModuleEnv that collects the samples the module emits.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sample, VuModuleEnv } from '../../contracts.js';
import { isAbortSignal, ITERATION_END, type AbortSignal } from '../api/runtime.js';
import { createBrowserModule } from './index.js';
import { launchOptions, parseBrowserArgs, parseTimeoutMs } from '@loadlab/k6-format/browser-launch';
import { cdpResourceType } from './network.js';
import { rateVital, VitalsTracker } from './vitals.js';

const LOGIN = `<!doctype html><html><head><title>Login</title><link rel="stylesheet" href="/missing.css"></head>
<body><h1>Sign in</h1><form action="/web/dashboard.html" method="get">
<input data-testid="login-email" name="email"><input data-testid="login-password" name="password" type="password">
<button data-testid="login-submit" type="submit">Sign in</button></form></body></html>`;
const DASHBOARD = `<!doctype html><html><head><title>Dashboard</title></head>
<body><h2 id="welcome">Welcome back</h2><p>Your team at a glance.</p></body></html>`;

interface Browserish {
  newPage(): Promise<PageLike>;
  newContext(): Promise<{ newPage(): Promise<PageLike>; close(): Promise<void>; pages(): PageLike[] }>;
  context(): unknown;
  close(): Promise<void>;
}
interface LocatorLike {
  fill(v: string): Promise<void>;
  click(): Promise<void>;
  textContent(): Promise<string | null>;
  isVisible(): Promise<boolean>;
}
interface PageLike {
  goto(url: string): Promise<{ status(): number } | null>;
  locator(sel: string): LocatorLike;
  waitForNavigation(): Promise<unknown>;
  waitForSelector(sel: string): Promise<unknown>;
  screenshot(opts?: object): Promise<ArrayBuffer>;
  evaluate(fn: string): Promise<unknown>;
  url(): string;
  close(): Promise<void>;
  isClosed(): boolean;
}

function fakeEnv(env: Record<string, string> = {}): VuModuleEnv & { samples: Sample[] } {
  const samples: Sample[] = [];
  return {
    vuId: 1,
    env,
    samples,
    currentTags: () => ({ scenario: 'ui', group: '' }),
    emit: (s) => samples.push(...s),
  };
}

describe('k6/browser module (playwright-core + Chromium)', function () {
  this.timeout(60_000);
  let server: Server;
  let base: string;
  const hits: string[] = [];

  before(async () => {
    server = createServer((req, res) => {
      hits.push(req.url ?? '');
      const path = (req.url ?? '/').split('?')[0];
      if (path === '/web/login.html') res.writeHead(200, { 'content-type': 'text/html' }).end(LOGIN);
      else if (path === '/web/dashboard.html')
        res.writeHead(200, { 'content-type': 'text/html' }).end(DASHBOARD);
      else res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('logs in through the page and emits k6 browser metrics with k6 tags', async () => {
    const env = fakeEnv();
    const mod = createBrowserModule(env);
    const browser = mod.browser as Browserish;
    const iterationEnd = (mod as Record<symbol, () => Promise<void>>)[ITERATION_END]!;
    try {
      const page = await browser.newPage();
      const res = await page.goto(`${base}/web/login.html`);
      assert.equal(res?.status(), 200);
      assert.equal(await page.locator('h1').textContent(), 'Sign in');
      await page.locator('[data-testid="login-email"]').fill('demo@example.test');
      await page.locator('[data-testid="login-password"]').fill('pw');
      await Promise.all([page.waitForNavigation(), page.locator('[data-testid="login-submit"]').click()]);
      assert.match(page.url(), /\/web\/dashboard\.html\?email=demo%40example\.test/);
      await page.waitForSelector('#welcome');
      assert.equal(await page.locator('#welcome').isVisible(), true);
      assert.equal(await page.evaluate('() => document.title'), 'Dashboard');
      const png = new Uint8Array(await page.screenshot());
      assert.deepEqual([...png.slice(1, 4)], [0x50, 0x4e, 0x47]); // "PNG"
      await page.close();
      assert.equal(page.isClosed(), true);
      assert.notEqual(browser.context(), null, 'closing the page leaves its context open, as in k6');
      await iterationEnd();
      assert.equal(browser.context(), null, 'the end of the iteration closed the context');
    } finally {
      await browser.close();
    }

    const of = (metric: string) => env.samples.filter((s) => s.metric === metric);
    const durations = of('browser_http_req_duration');
    const loginDoc = durations.find((s) => s.tags.url === `${base}/web/login.html`);
    assert.ok(loginDoc, 'the login document request is measured');
    assert.equal(loginDoc.type, 'trend');
    assert.equal(loginDoc.contains, 'time');
    assert.ok(loginDoc.value >= 0);
    assert.deepEqual(
      { ...loginDoc.tags },
      {
        scenario: 'ui',
        group: '',
        method: 'GET',
        name: `${base}/web/login.html`,
        url: `${base}/web/login.html`,
        proto: 'http/1.1',
        status: '200',
        resource_type: 'Document',
        from_cache: 'false',
        from_prefetch_cache: 'false',
        from_service_worker: 'false',
      },
    );
    assert.ok(durations.some((s) => s.tags.url?.startsWith(`${base}/web/dashboard.html`)));

    const failed = of('browser_http_req_failed');
    // Chromium fails the load of a 404 stylesheet served as text/plain (CDP loadingFailed): real k6
    // v1.3 then counts the bytes it sent and measures no response (checked side by side in
    // browser-api.e2e.test.ts with fixtures/failed-request.js, and by hand for this page).
    const css = env.samples.filter((s) => s.tags.url === `${base}/missing.css`);
    assert.deepEqual(
      css.map((s) => [s.metric, s.tags.resource_type]),
      [['browser_data_sent', 'Stylesheet']],
    );
    assert.equal(failed.find((s) => s.tags.url === `${base}/web/login.html`)?.value, 0);

    const received = of('browser_data_received').reduce((a, s) => a + s.value, 0);
    const sent = of('browser_data_sent').reduce((a, s) => a + s.value, 0);
    assert.ok(received > LOGIN.length, `received ${received} bytes covers the login page body`);
    assert.ok(sent > 0);
    assert.equal(of('browser_data_sent')[0]?.tags.status, undefined, 'data_sent carries request tags only');

    // Both documents painted: FCP, TTFB and LCP (final at the first input on the login page) once per
    // document; CLS only for the dashboard, as the login page was left by navigation (k6 loses it).
    for (const name of ['fcp', 'ttfb', 'lcp', 'cls']) {
      const vs = of(`browser_web_vital_${name}`);
      const urls = vs.map((s) => s.tags.url?.split('?')[0]).sort();
      const expected = [`${base}/web/dashboard.html`, `${base}/web/login.html`];
      assert.deepEqual(urls, name === 'cls' ? expected.slice(0, 1) : expected, name);
      for (const s of vs) {
        assert.equal(s.contains, name === 'cls' ? 'default' : 'time');
        assert.match(s.tags.rating ?? '', /^(good|needs_improvement|poor)$/);
        assert.equal(s.tags.scenario, 'ui');
      }
    }
    assert.equal(
      of('browser_web_vital_cls').every((s) => s.value === 0),
      true,
      'static pages do not shift',
    );
  });

  it('allows one context at a time, as k6 does', async () => {
    const env = fakeEnv();
    const browser = createBrowserModule(env).browser as Browserish;
    try {
      const ctx = await browser.newContext();
      await assert.rejects(browser.newPage(), /existing browser context must be closed/);
      const page = await ctx.newPage();
      await page.goto(`${base}/web/dashboard.html`);
      assert.equal(ctx.pages().length, 1);
      await ctx.close();
      assert.equal(browser.context(), null);
      const again = await browser.newPage(); // the same Chromium serves the next context
      await again.close();
    } finally {
      await browser.close();
    }
    assert.ok(
      env.samples.some((s) => s.metric === 'browser_web_vital_fcp'),
      env.samples.map((s) => `${s.metric} ${s.tags.url}`).join('; '),
    );
  });

  it('lists devices in k6 shape, usable as context options', async () => {
    const env = fakeEnv();
    const mod = createBrowserModule(env);
    const devices = mod.devices as Record<
      string,
      { name: string; viewport: { width: number }; isMobile: boolean }
    >;
    const phone = devices['iPhone X'];
    assert.equal(phone?.name, 'iPhone X');
    assert.equal(phone?.isMobile, true);
    const browser = mod.browser as { newPage(o: unknown): Promise<PageLike>; close(): Promise<void> };
    try {
      const page = await browser.newPage(phone);
      await page.goto(`${base}/web/dashboard.html`);
      assert.equal(await page.evaluate('() => screen.width'), phone?.viewport.width);
      assert.match(String(await page.evaluate('() => navigator.userAgent')), /iPhone/);
      await page.close();
    } finally {
      await browser.close();
    }
  });

  it('aborts the test in k6 words when Chromium cannot be launched', async () => {
    const env = fakeEnv({ K6_BROWSER_EXECUTABLE_PATH: '/nonexistent/chromium' });
    const browser = createBrowserModule(env).browser as Browserish;
    await assert.rejects(browser.newPage(), (err: Error) => {
      assert.equal(isAbortSignal(err), true, 'an abort of the whole test, as k6 (exit 108)');
      assert.equal(
        (err as AbortSignal).logged,
        "error building browser on IterStart: finding browser executable: k6 couldn't detect google chrome or a chromium-supported browser on the given path: /nonexistent/chromium",
      );
      assert.match(err.stack ?? '', /index\.e2e\.test\.ts/, 'located at the call that needed the browser');
      return true;
    });
  });
});

describe('k6/browser helpers', () => {
  it('reads K6_BROWSER_* like k6', () => {
    const o = launchOptions({
      K6_BROWSER_HEADLESS: 'false',
      K6_BROWSER_ARGS: 'no-sandbox,window-size=800,600',
    });
    assert.equal(o.headless, false);
    assert.equal(o.executablePath, '/usr/bin/chromium');
    assert.ok(o.args?.includes('--window-size=800,600'));
    assert.equal(o.args?.filter((a) => a === '--no-sandbox').length, 1, 'no duplicate flags');
    assert.equal(launchOptions({}).headless, true);
    assert.equal(launchOptions({ K6_BROWSER_EXECUTABLE_PATH: '/x/chrome' }).executablePath, '/x/chrome');
    assert.deepEqual(parseBrowserArgs('--a, b=1'), ['--a', '--b=1']);
    assert.equal(parseTimeoutMs('1m', 5), 60_000);
    assert.equal(parseTimeoutMs(undefined, 5), 5);
    assert.throws(() => parseTimeoutMs('soon', 5), /invalid K6_BROWSER_TIMEOUT/);
  });

  it('rates vitals at the web.dev bounds and names resource types as CDP does', () => {
    assert.equal(rateVital('lcp', 2500), 'good');
    assert.equal(rateVital('lcp', 2501), 'needs_improvement');
    assert.equal(rateVital('lcp', 4001), 'poor');
    assert.equal(rateVital('cls', 0.1), 'good');
    assert.equal(rateVital('cls', 0.3), 'poor');
    assert.equal(rateVital('inp', 300), 'needs_improvement');
    assert.equal(cdpResourceType('xhr'), 'XHR');
    assert.equal(cdpResourceType('document'), 'Document');
    assert.equal(cdpResourceType('weird'), 'Other');
  });

  it('as k6: LCP at the first input, a document left by navigation loses its pending CLS/INP/LCP', () => {
    const env = fakeEnv();
    const t = new VitalsTracker(env);
    const left = { doc: 'left', url: 'http://x/a' };
    t.report({ ...left, name: 'lcp', value: 100 });
    t.report({ ...left, name: 'cls', value: 0.2 });
    t.report({ ...left, name: 'inp', value: 40 });
    const clicked = { doc: 'clicked', url: 'http://x/b' };
    t.report({ ...clicked, name: 'lcp', value: 200 });
    t.report({ ...clicked, name: 'input', value: 0 });
    t.report({ ...clicked, name: 'lcp', value: 300 }); // after the input: LCP is final already
    assert.deepEqual(
      env.samples.map((s) => [s.metric, s.value, s.tags.url]),
      [['browser_web_vital_lcp', 200, 'http://x/b']],
    );
    t.finishAll(false); // the page navigated away from both
    t.report({ ...left, name: 'cls', value: 0.3 });
    t.finishAll(true);
    assert.equal(env.samples.length, 1, env.samples.map((s) => s.metric).join());
  });

  it('emits FCP/TTFB once, LCP/CLS/INP once when the page closes, nothing after', () => {
    const env = fakeEnv();
    const t = new VitalsTracker(env);
    const doc = { doc: 'd1', url: 'http://x/a' };
    t.report({ ...doc, name: 'fcp', value: 100 });
    t.report({ ...doc, name: 'fcp', value: 120 });
    t.report({ ...doc, name: 'lcp', value: 150 });
    t.report({ ...doc, name: 'lcp', value: 3000 });
    assert.deepEqual(
      env.samples.map((s) => s.metric),
      ['browser_web_vital_fcp'],
    );
    t.absorb({ ...doc, values: { lcp: 3100, cls: 0.3, ttfb: 20 } });
    t.finishAll(true);
    t.report({ ...doc, name: 'lcp', value: 9999 }); // a late binding call for a finished document
    t.finishAll(true);
    const got = Object.fromEntries(env.samples.map((s) => [s.metric.slice(18), [s.value, s.tags.rating]]));
    assert.deepEqual(got, {
      fcp: [100, 'good'],
      ttfb: [20, 'good'],
      lcp: [3100, 'needs_improvement'],
      cls: [0.3, 'poor'],
    });
    assert.equal(env.samples.length, 4);
  });
});
