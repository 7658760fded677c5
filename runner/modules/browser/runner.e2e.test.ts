// The module inside the Node runner: a k6 browser script run by `bin/loadlab.js run` (VU worker,
// tsx-loaded module, summary export) against a node:http page on a random loopback port.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../../devkit/loadlab-run.js';

const SCRIPT = `import { browser } from 'k6/browser';
import { check } from 'k6';
export const options = {
  scenarios: { ui: { executor: 'shared-iterations', vus: 1, iterations: 2, options: { browser: { type: 'chromium' } } } },
  thresholds: { browser_http_req_failed: ['rate==0'], checks: ['rate==1'] },
};
export default async function () {
  const page = await browser.newPage();
  try {
    await page.goto(__ENV.SITE);
    check(await page.locator('h2').textContent(), { 'heading read': (t) => t === 'Hello runner' });
  } finally {
    await page.close();
  }
}
`;

/** This process's environment (the browser settings a developer gives the runner), and a bound. */
const RUN = { env: process.env, timeoutMs: 90_000 };

describe('k6/browser in the Node runner', function () {
  this.timeout(120_000);
  let server: Server;
  let site: string;

  before(async () => {
    server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><h2>Hello runner</h2>'),
    );
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    site = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('runs a k6 browser script and exports the browser metrics', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-browser-run-'));
    writeFileSync(join(dir, 'script.js'), SCRIPT);
    const exportFile = join(dir, 'export.json');
    const r = await runLoadlab(
      ['-q', '-e', `SITE=${site}`, '--summary-export', exportFile, join(dir, 'script.js')],
      RUN,
    );
    assert.equal(r.code, 0, r.output);
    const metrics = (
      JSON.parse(readFileSync(exportFile, 'utf8')) as { metrics: Record<string, Record<string, number>> }
    ).metrics;
    for (const name of [
      'browser_http_req_duration',
      'browser_http_req_failed',
      'browser_data_received',
      'browser_data_sent',
      'browser_web_vital_fcp',
      'browser_web_vital_lcp',
      'browser_web_vital_ttfb',
      'browser_web_vital_cls',
    ]) {
      assert.ok(metrics[name], `${name} in the export`);
    }
    assert.equal(metrics.checks?.passes, 2);
    assert.equal(metrics.iterations?.count, 2);
    assert.equal(metrics.browser_web_vital_cls?.max, 0);
  });

  it('accepts thresholds on browser metrics only when the script imports k6/browser, as k6 does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-browser-thr-'));
    writeFileSync(
      join(dir, 'script.js'),
      `export const options = { iterations: 1, thresholds: { browser_http_req_failed: ['rate==0'] } };
export default function () {}
`,
    );
    const r = await runLoadlab(['-q', join(dir, 'script.js')], RUN);
    assert.equal(r.code, 104, r.output);
    assert.match(r.output, /no metric name \\"browser_http_req_failed\\" found/);
  });
});
