// The gate that cannot pass on nothing, end to end on both engines: suite bundles broken on purpose
// (a browser that cannot start, a service that is down, an init error) must exit non-zero, where k6
// alone would pass every threshold of a run whose iterations all threw. A working run passes, so the
// gate is not what fails them by itself. Real k6 runs when ../shared/tools/k6 (or REAL_K6) exists.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runLoadlab, type RunResult } from '../../runner/e2e/harness.js';
import { DEFAULT_EXECUTABLE } from '../../runner/modules/browser/launch.js';
import { bundleSuite, suiteEntryPoints } from '../../scripts/build-k6.js';
import { createSandboxApp } from '../../services/sandbox/app.js';
import { listen, type StartedServer } from '../../services/shared/server.js';
import { freePort } from '../../stack/local/processes.js';
import { realK6 } from '../../stack/real-k6.js';

interface Summary {
  metrics: Record<string, { values: Record<string, number>; thresholds?: Record<string, { ok: boolean }> }>;
}

const CREDENTIALS = { DEMO_EMAIL: 'gate@loadlab.local', DEMO_PASSWORD: 'gate-secret' };
const SMOKE = 'scenarios/smoke/api-health.js';
const BROWSER = 'scenarios/browser/login-page.js';
// One browser iteration keeps the scenario (and its browser type); LT_THINK_TIME=0 keeps runs short.
const ONE_BROWSER_ITERATION = { LT_BROWSER_VUS: '1', LT_BROWSER_ITERATIONS: '1', LT_THINK_TIME: '0' };

describe('k6 suite: a run that measured nothing fails its gate (both engines)', function () {
  this.timeout(300_000);
  let bundles: string;
  let sandbox: StartedServer;
  const k6 = realK6();
  const engines = ['node', 'k6'] as const;

  before(async () => {
    bundles = mkdtempSync(join(tmpdir(), 'loadlab-gate-'));
    await bundleSuite(suiteEntryPoints(), bundles);
    sandbox = await listen(
      createSandboxApp({
        demoEmail: CREDENTIALS.DEMO_EMAIL,
        demoPassword: CREDENTIALS.DEMO_PASSWORD,
        tokenSecret: 'gate',
        tokenTtlSeconds: 600,
        faults: { enabled: false, latencyMs: 0, errorRate: 0 },
      }),
      0,
      '127.0.0.1',
    );
  });
  after(async () => {
    await sandbox?.close();
  });

  /** Runs a bundle with `engine` in a folder that has results/; the summary-latest.json it wrote. */
  async function run(
    engine: (typeof engines)[number],
    bundle: string,
    args: string[],
    env: Record<string, string>,
  ): Promise<RunResult & { summary?: Summary }> {
    const cwd = mkdtempSync(join(tmpdir(), 'loadlab-gate-run-'));
    mkdirSync(join(cwd, 'results'));
    const result = await runLoadlab([join(bundles, bundle), ...args, '-q'], {
      engine,
      cwd,
      timeoutMs: 120_000,
      // The harness runs `k6` from PATH: put the reference k6 first.
      env: {
        ...CREDENTIALS,
        ...env,
        ...(engine === 'k6' ? { PATH: `${dirname(k6!)}:${process.env.PATH ?? ''}` } : {}),
      },
    });
    const file = join(cwd, 'results/summary-latest.json');
    return existsSync(file) ? { ...result, summary: JSON.parse(readFileSync(file, 'utf8')) } : result;
  }

  function assertGateFailed(r: Awaited<ReturnType<typeof run>>, codes: number[]): void {
    assert.ok(codes.includes(r.code ?? -1), `exit ${r.code}, expected ${codes.join(' or ')}\n${r.stderr}`);
    const gate = r.summary?.metrics.completed_iterations;
    assert.equal(gate?.values.count, 0);
    assert.equal(gate?.thresholds?.['count>0']?.ok, false);
  }

  for (const engine of engines) {
    describe(engine === 'node' ? 'Node runner' : 'real k6', () => {
      before(function () {
        if (engine === 'k6' && !k6) {
          console.warn('      skipped: no reference k6 (../shared/tools/k6 or REAL_K6)');
          this.skip();
        }
      });

      it('control: a working smoke run passes with completed_iterations > 0', async () => {
        const r = await run(engine, SMOKE, ['--vus', '1', '--iterations', '2'], {
          BASE_URL: sandbox.url,
          LT_THINK_TIME: '0',
        });
        assert.equal(r.code, 0, r.stderr);
        assert.equal(r.summary?.metrics.completed_iterations?.values.count, 2);
      });

      // Real k6 v1.3 also aborts the test when the browser cannot be built (exit 108); the Node runner
      // keeps iterating and its gate fails (99). Either way the run fails and the gate says why.
      it('a browser that cannot start: every iteration throws, the gate fails', async () => {
        const r = await run(engine, BROWSER, [], {
          ...ONE_BROWSER_ITERATION,
          BASE_URL: sandbox.url,
          K6_BROWSER_EXECUTABLE_PATH: '/nonexistent/chromium',
        });
        assertGateFailed(r, engine === 'node' ? [99] : [99, 108]);
      });

      it('a service that is down: the run fails (exit 99)', async () => {
        const closedPort = await freePort();
        const r = await run(engine, SMOKE, ['--vus', '1', '--iterations', '2'], {
          BASE_URL: `http://127.0.0.1:${closedPort}`,
          LT_THINK_TIME: '0',
        });
        assert.equal(r.code, 99, r.stderr);
      });

      it('an init error: the run stops before any VU (exit 107)', async () => {
        const r = await run(engine, SMOKE, ['--vus', '1', '--iterations', '1'], {
          BASE_URL: sandbox.url,
          LT_THINK_TIME: 'fast',
        });
        assert.equal(r.code, 107, r.stderr);
        assert.match(r.stderr, /LT_THINK_TIME must be a number >= 0/);
      });
    });
  }

  it('real k6 as root without no-sandbox: the browser never starts and the gate fails (exit 99 or 108)', async function () {
    if (!k6) return this.skip();
    if (process.getuid?.() !== 0 || !existsSync(DEFAULT_EXECUTABLE)) {
      console.warn(`      skipped: needs root and ${DEFAULT_EXECUTABLE}`);
      return this.skip();
    }
    const r = await run('k6', BROWSER, [], {
      ...ONE_BROWSER_ITERATION,
      BASE_URL: sandbox.url,
      K6_BROWSER_EXECUTABLE_PATH: DEFAULT_EXECUTABLE,
    });
    assertGateFailed(r, [99, 108]);
  });
});
