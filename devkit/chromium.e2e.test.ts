// The dev kit's Chromium is launched with k6/browser's recipe: K6_BROWSER_ARGS reaches it as it
// reaches the runner's browser.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { DEFAULT_EXECUTABLE } from '@loadlab/k6-format/browser-launch';
import { launchChromium } from './chromium.js';

describe('devkit Chromium (e2e)', function () {
  this.timeout(60_000);

  it('honours K6_BROWSER_ARGS as k6/browser does', async function () {
    const executable = process.env.K6_BROWSER_EXECUTABLE_PATH || DEFAULT_EXECUTABLE;
    if (!existsSync(executable)) this.skip(); // no Chromium at K6_BROWSER_EXECUTABLE_PATH or /usr/bin/chromium
    const browser = await launchChromium({ ...process.env, K6_BROWSER_ARGS: 'user-agent=loadlab-probe' });
    try {
      const page = await browser.newPage();
      assert.equal(await page.evaluate('navigator.userAgent'), 'loadlab-probe');
    } finally {
      await browser.close();
    }
  });
});
