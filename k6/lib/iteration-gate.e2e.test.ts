// The gate that cannot pass on nothing, end to end on both engines: suite bundles broken on purpose
// (a browser that cannot start, a service that is down, an init error) must exit non-zero, where k6
// alone would pass every threshold of a run whose iterations all threw. A working run passes, so the
// gate is not what fails them by itself. Real k6 runs when ../shared/tools/k6 (or REAL_K6) exists.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_EXECUTABLE } from '@loadlab/k6-format/browser-launch';
import { bundleSuite, suiteEntryPoints } from '../build.js';
import type { StartedServer } from '@loadlab/services/start-and-stop';
import { freePort } from '../../devkit/processes.js';
import { realK6 } from '../../devkit/real-k6.js';
import { describeOnBothEngines, runBundle, startTestSandbox, type BundleRun } from '../testing/run-bundle.js';

const SMOKE = 'scenarios/smoke/api-health.js';
const BROWSER = 'scenarios/browser/login-page.js';
// One browser iteration keeps the scenario (and its browser type); LT_THINK_TIME=0 keeps runs short.
const ONE_BROWSER_ITERATION = { LT_BROWSER_VUS: '1', LT_BROWSER_ITERATIONS: '1', LT_THINK_TIME: '0' };

function assertGateFailed(r: BundleRun, codes: number[]): void {
  assert.ok(codes.includes(r.code ?? -1), `exit ${r.code}, expected ${codes.join(' or ')}\n${r.stderr}`);
  const gate = r.summary?.metrics.completed_iterations;
  assert.equal(gate?.values.count, 0);
  assert.equal(gate?.thresholds?.['count>0']?.ok, false);
}

describe('k6 suite: a run that measured nothing fails its gate (both engines)', function () {
  this.timeout(300_000);
  let bundles: string;
  let sandbox: StartedServer;
  const k6 = realK6();

  before(async () => {
    bundles = mkdtempSync(join(tmpdir(), 'loadlab-gate-'));
    await bundleSuite(suiteEntryPoints(), bundles);
    sandbox = await startTestSandbox();
  });
  after(async () => {
    await sandbox?.close();
  });

  describeOnBothEngines((runner) => {
    const run = (bundle: string, args: string[], env: Record<string, string>) =>
      runner(join(bundles, bundle), args, env);

    it('control: a working smoke run passes with completed_iterations > 0', async () => {
      const r = await run(SMOKE, ['--vus', '1', '--iterations', '2'], {
        BASE_URL: sandbox.url,
        LT_THINK_TIME: '0',
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(r.summary?.metrics.completed_iterations?.values.count, 2);
    });

    // Real k6 v1.3 aborts the test when the browser cannot be built (exit 108), and so does the Node
    // runner; the gate, judged on the iterations before the abort, fails too.
    it('a browser that cannot start: the test aborts (exit 108), the gate fails', async () => {
      const r = await run(BROWSER, [], {
        ...ONE_BROWSER_ITERATION,
        BASE_URL: sandbox.url,
        K6_BROWSER_EXECUTABLE_PATH: '/nonexistent/chromium',
      });
      assertGateFailed(r, [108]);
    });

    it('a service that is down: the run fails (exit 99)', async () => {
      const closedPort = await freePort();
      const r = await run(SMOKE, ['--vus', '1', '--iterations', '2'], {
        BASE_URL: `http://127.0.0.1:${closedPort}`,
        LT_THINK_TIME: '0',
      });
      assert.equal(r.code, 99, r.stderr);
    });

    it('an init error: the run stops before any VU (exit 107)', async () => {
      const r = await run(SMOKE, ['--vus', '1', '--iterations', '1'], {
        BASE_URL: sandbox.url,
        LT_THINK_TIME: 'fast',
      });
      assert.equal(r.code, 107, r.stderr);
      assert.match(r.stderr, /LT_THINK_TIME must be a number >= 0/);
    });
  });

  it('real k6 as root without no-sandbox: the browser never starts and the gate fails (exit 99 or 108)', async function () {
    if (!k6) return this.skip();
    if (process.getuid?.() !== 0 || !existsSync(DEFAULT_EXECUTABLE)) {
      console.warn(`      skipped: needs root and ${DEFAULT_EXECUTABLE}`);
      return this.skip();
    }
    const r = await runBundle({ kind: 'k6', path: k6 }, join(bundles, BROWSER), [], {
      ...ONE_BROWSER_ITERATION,
      BASE_URL: sandbox.url,
      K6_BROWSER_EXECUTABLE_PATH: DEFAULT_EXECUTABLE,
    });
    assertGateFailed(r, [99, 108]);
  });
});
