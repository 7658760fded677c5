// The login page in real Chromium: what a user (and the browser scenario) does. Code run in the
// page is passed as strings, since the tests compile without the DOM types.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { artifactPath, launchChromium } from '../../devkit/chromium.js';
import { listen, type StartedServer } from '../shared/server.js';
import { createSandboxApp } from './app.js';
import { verifyToken } from './tokens.js';

const TOKEN_SECRET = 'browser-test-key';

describe('sandbox pages in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: StartedServer;

  before(async () => {
    const app = createSandboxApp({
      demoEmail: 'demo@test.local',
      demoPassword: 'browser-secret',
      tokenSecret: TOKEN_SECRET,
      tokenTtlSeconds: 60,
      faults: { enabled: false, latencyMs: 0, errorRate: 0 },
    });
    server = await listen(app, 0, '127.0.0.1');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await server?.close();
  });

  it('logs in, lands on the dashboard and lists the users fetched with the token', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    page.on('pageerror', (e) => errors.push(e.message));
    // Which page asked for the users, and with which Authorization header.
    const usersCalls: { from: string; authorization: string | undefined }[] = [];
    page.on('request', (r) => {
      if (new URL(r.url()).pathname === '/api/users')
        usersCalls.push({ from: new URL(page.url()).pathname, authorization: r.headers().authorization });
    });
    await page.goto(`${server.url}/web/login.html`);
    await page.fill('[data-testid="login-email"]', 'demo@test.local');
    await page.fill('[data-testid="login-password"]', 'browser-secret');
    await Promise.all([page.waitForURL('**/web/dashboard.html'), page.click('[data-testid="login-submit"]')]);
    await page.waitForSelector('[data-testid="users-table"] tbody tr:nth-child(10)');
    assert.match((await page.textContent('[data-testid="current-user"]')) ?? '', /demo@test\.local/);
    assert.equal(
      await page.textContent('[data-testid="user-count"]'),
      String(await page.locator('tbody tr').count()),
    );
    await page.click('[data-testid="fetch-users-btn"]');
    await page.waitForSelector('[data-testid="api-result"]:has-text("@")');
    await page.screenshot({ path: artifactPath('sandbox-dashboard.png'), fullPage: true });

    // The team page, reached through the navigation, lists the same users, fetched with the token.
    await Promise.all([page.waitForURL('**/web/team.html'), page.click('nav a[href="/web/team.html"]')]);
    await page.waitForSelector('[data-testid="users-table"] tbody tr:nth-child(10)');
    assert.match((await page.textContent('[data-testid="users-status"]')) ?? '', /^\d+ users$/);
    await page.screenshot({ path: artifactPath('sandbox-team.png'), fullPage: true });

    // The token the login call stored, verified by the server itself.
    const issued = (await page.evaluate<string | null>("sessionStorage.getItem('loadlab.token')")) ?? '';
    assert.ok(verifyToken(issued, TOKEN_SECRET).ok, 'the page keeps the token the login answered');
    assert.deepEqual([...new Set(usersCalls.map((c) => c.from))].sort(), [
      '/web/dashboard.html',
      '/web/team.html',
    ]);
    for (const call of usersCalls) assert.equal(call.authorization, `Bearer ${issued}`);

    // Settings shows who is signed in; signing out ends the session.
    await page.goto(`${server.url}/web/settings.html`);
    assert.equal(await page.inputValue('#email'), 'demo@test.local');
    await Promise.all([page.waitForURL('**/web/login.html'), page.click('[data-testid="logout"]')]);
    assert.equal(await page.evaluate<number>('sessionStorage.length'), 0);
    assert.deepEqual(errors, []);
  });

  it('sends a user whose stored token the API refuses back to the login page with a notice', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/web/login.html`);
    await page.evaluate("sessionStorage.setItem('loadlab.token', 'forged.token')");
    await page.goto(`${server.url}/web/dashboard.html`);
    await page.waitForURL('**/web/login.html?reason=expired');
    await page.waitForSelector('[data-testid="login-error"]:has-text("session expired")');
    assert.equal(await page.evaluate<string | null>("sessionStorage.getItem('loadlab.token')"), null);
  });

  it('stays usable on a phone-sized screen: nothing wider than the viewport', async () => {
    const page = await browser.newPage({ viewport: { width: 390, height: 800 } });
    for (const name of ['login', 'dashboard', 'team', 'settings', 'activity']) {
      await page.goto(`${server.url}/web/${name}.html`);
      await page.waitForLoadState('networkidle');
      const overflow = await page.evaluate<number>(
        'document.documentElement.scrollWidth - window.innerWidth',
      );
      assert.ok(overflow <= 0, `${name}.html is ${overflow}px wider than the screen`);
    }
    await page.goto(`${server.url}/web/dashboard.html`);
    await page.waitForSelector('tbody tr');
    await page.screenshot({ path: artifactPath('sandbox-dashboard-phone.png') });
  });

  it('shows why a wrong password fails and stays on the login page', async () => {
    const page = await browser.newPage();
    await page.goto(`${server.url}/web/login.html`);
    await page.fill('[data-testid="login-email"]', 'demo@test.local');
    await page.fill('[data-testid="login-password"]', 'wrong');
    await page.click('[data-testid="login-submit"]');
    await page.waitForSelector('[data-testid="login-error"]:has-text("Login failed")');
    assert.match(page.url(), /login\.html$/);
  });
});
