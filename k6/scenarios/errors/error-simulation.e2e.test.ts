// The error-simulation scenario end to end, on the Node runner and on real k6 (when
// ../shared/tools/k6 or REAL_K6 exists): against a plain sandbox the simulated 404/422 pass their
// checks without counting in http_req_failed; against a sandbox started with fault injection on,
// LT_FAULT_ERROR_RATE makes the thresholds fail (exit 99), as k6/README.md tells a user to try.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite } from '../../build.js';
import type { StartedServer } from '@loadlab/services/start-and-stop';
import { describeOnBothEngines, startTestSandbox } from '../../testing/run-bundle.js';

const SHORT = ['--vus', '2', '--duration', '3s'];

describe('error simulation scenario (e2e, both engines)', function () {
  this.timeout(300_000);
  let bundle: string;
  let sandbox: StartedServer;
  let faulty: StartedServer;

  before(async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-errors-'));
    await bundleSuite(['k6/scenarios/errors/error-simulation.ts'], dir);
    bundle = join(dir, 'scenarios/errors/error-simulation.js');
    sandbox = await startTestSandbox();
    // Fault injection switched on, as SANDBOX_FAULTS=true does, with no default errors or latency.
    faulty = await startTestSandbox({ enabled: true, latencyMs: 0, errorRate: 0 });
  });
  after(async () => {
    await sandbox?.close();
    await faulty?.close();
  });

  describeOnBothEngines((runner) => {
    const run = (env: Record<string, string>) => runner(bundle, SHORT, env);

    it('simulated 404/422 are checked and not failed requests: exit 0', async () => {
      const r = await run({ BASE_URL: sandbox.url });
      assert.equal(r.code, 0, r.stderr);
      const m = r.summary!.metrics;
      assert.equal(m.checks!.values.fails, 0);
      assert.equal(m.http_req_failed!.values.rate, 0);
      // Rate: `fails` counts zero values, i.e. requests that did not fail; the errors were made.
      assert.ok(m['http_req_failed{endpoint:errors}']!.values.fails! > 0);
      assert.equal(m['http_req_failed{endpoint:errors}']!.values.rate, 0);
    });

    it('LT_FAULT_ERROR_RATE on a sandbox with faults on: thresholds fail, exit 99', async () => {
      const r = await run({ BASE_URL: faulty.url, LT_FAULT_ERROR_RATE: '0.5' });
      assert.equal(r.code, 99, r.stderr);
      const m = r.summary!.metrics;
      assert.ok(m.http_req_failed!.values.rate! > 0.1, JSON.stringify(m.http_req_failed));
      assert.equal(m.http_req_failed!.thresholds!['rate<0.005']!.ok, false);
      assert.equal(m.checks!.thresholds!['rate>0.99']!.ok, false);
      assert.match(r.stderr, /thresholds on metrics '[^']*http_req_failed/);
    });

    it('the same variables against a sandbox without faults change nothing: exit 0', async () => {
      const r = await run({ BASE_URL: sandbox.url, LT_FAULT_ERROR_RATE: '0.5' });
      assert.equal(r.code, 0, r.stderr);
    });
  });
});
