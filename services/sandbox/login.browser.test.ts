// The login page in real Chromium: what a user (and the browser scenario) does.
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { artifactPath, launchChromium } from '../../report/test-helpers.js';
import { listen, type StartedServer } from '../shared/server.js';
import { createSandboxApp } from './app.js';

describe('sandbox pages in Chromium', function () {
  this.timeout(60_000);
  let browser: Browser;
  let server: StartedServer;

  before(async () => {
    const app = createSandboxApp({
      demoEmail: 'demo@test.local',
      demoPassword: 'browser-secret',
      tokenSecret: 'k',
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
    assert.deepEqual(errors, []);
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
