// Browser: the login page in Chromium. k6 has no --browser flag: the scenario's
// options.browser.type turns the browser on. CLI --vus/--iterations would replace this scenario and
// drop the browser with it, so a shorter run sets LT_BROWSER_VUS / LT_BROWSER_ITERATIONS instead.
import { browser } from 'k6/browser';
import { check } from 'k6';
import { Trend } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { SUMMARY_TREND_STATS, type ScenarioPlan } from '../../lib/options.js';
import { THINK_TIME } from '../../lib/think-time.js';
import { CUSTOM_THRESHOLDS, scenarioThresholds } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'browser_login',
  testType: 'browser',
  suite: 'login-page',
  fixedProfile: 'smoke',
};
const config = suiteConfig(__ENV);
const browserPageLoad = new Trend('browser_page_load', true);

/** An env var the scenario reads for its size; anything but a whole number >= 1 stops the run at init. */
function positiveInt(name: string, fallback: number): number {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a whole number >= 1, got "${raw}"`);
  return value;
}

export const options = {
  scenarios: {
    [plan.name]: {
      executor: 'shared-iterations',
      vus: positiveInt('LT_BROWSER_VUS', 2),
      iterations: positiveInt('LT_BROWSER_ITERATIONS', 4),
      options: { browser: { type: 'chromium' } },
      tags: { test_type: plan.testType, suite: plan.suite },
    },
  },
  thresholds: scenarioThresholds(plan.fixedProfile!, {
    browser_page_load: [...CUSTOM_THRESHOLDS.browser_page_load],
  }),
  summaryTrendStats: SUMMARY_TREND_STATS,
};

export default async function (): Promise<void> {
  const page = await browser.newPage();
  try {
    const started = Date.now();
    await page.goto(`${config.baseUrl}/web/login.html`);
    browserPageLoad.add(Date.now() - started);
    await page.locator('[data-testid=login-email]').fill(config.email);
    // Not in the spec's sequence, but the page marks the password required: without it the click
    // submits nothing and the flow would not reach the dashboard.
    await page.locator('[data-testid=login-password]').fill(config.password);
    await Promise.all([page.waitForNavigation(), page.locator('[data-testid=login-submit]').click()]);
    check(page.url(), { 'browser lands on dashboard': (url) => url.endsWith('/web/dashboard.html') });
  } finally {
    await page.close();
  }
  endIteration(THINK_TIME.browser);
}

export const handleSummary = summaryHandler(plan, 'browser-login');
