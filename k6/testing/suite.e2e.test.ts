// Every bundle of the suite on the Node runner against the real sandbox, shortened with CLI
// overrides as k6 allows: all checks pass and the summary files are written. With the sandbox's
// fault injection on, the same run crosses its thresholds and exits 99.
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite, suiteEntryPoints } from '../build.js';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { startSuiteServices, type SuiteServices } from './suite-services.js';

// The browser scenario keeps its own scenario (the browser type lives there), so no CLI overrides.
const RUN_AS_WRITTEN = ['scenarios/browser/login-page.js'];

describe('suite bundles on the Node runner (e2e)', function () {
  this.timeout(300_000);
  let bundles: string;
  let services: SuiteServices;

  before(async () => {
    bundles = mkdtempSync(join(tmpdir(), 'loadlab-bundles-'));
    await bundleSuite(suiteEntryPoints(), bundles);
    services = await startSuiteServices({ faulty: true });
  });
  after(async () => {
    await services?.close();
  });

  const env = (baseUrl: string, extra: Record<string, string> = {}) => services.env(baseUrl, extra);

  /**
   * A working folder with the results folders the npm scripts make before a run (run-k6.sh,
   * test-report.ts): k6 creates summary files, not folders, and neither does the runner.
   */
  const runDir = (): string => {
    const cwd = mkdtempSync(join(tmpdir(), 'loadlab-run-'));
    mkdirSync(join(cwd, 'results', 'runs'), { recursive: true });
    return cwd;
  };

  // Real k6 runs every bundle too, side by side with the runner: differential.e2e.test.ts.
  for (const entry of suiteEntryPoints()) {
    const relative = entry.replace(/^k6\//, '').replace(/\.ts$/, '.js');
    const overrides = RUN_AS_WRITTEN.includes(relative) ? [] : ['--vus', '2', '--iterations', '4'];
    it(`${relative} passes its checks and writes its summaries`, async () => {
      const cwd = runDir();
      const result = await runLoadlab([join(bundles, relative), ...overrides, '-q'], {
        cwd,
        env: env(services.sandbox.url, { LT_RUN_SUMMARY: 'results/runs/e2e.json', LT_SCENARIO: 'e2e' }),
      });
      assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
      assert.match(result.stdout, /: PASS/);
      const data = JSON.parse(readFileSync(join(cwd, 'results/summary-latest.json'), 'utf8'));
      assert.ok(data.metrics.checks.values.passes > 0, 'checks ran');
      assert.equal(data.metrics.checks.values.fails, 0, 'every check passed');
      assert.ok(existsSync(join(cwd, 'results/runs/e2e.json')));
      assert.ok(
        readdirSync(join(cwd, 'results')).some((f) =>
          /^summary-e2e-\w+-\d{4}-\d\d-\d\dT\d\d-\d\d-\d\dZ\.json$/.test(f),
        ),
      );
    });
  }

  it('exits 99 when injected faults cross the thresholds, and still writes the summary', async () => {
    const cwd = runDir();
    const result = await runLoadlab(
      [join(bundles, 'scenarios/smoke/api-health.js'), '--vus', '2', '--duration', '3s', '-q'],
      {
        cwd,
        env: env(services.faulty!.url),
      },
    );
    assert.equal(result.code, 99, result.stderr);
    assert.match(result.stdout, /: FAIL/);
    assert.match(result.stderr, /thresholds on metrics '.*http_req_failed.*' have been crossed/);
    const data = JSON.parse(readFileSync(join(cwd, 'results/summary-latest.json'), 'utf8'));
    assert.equal(data.metrics.http_req_failed.thresholds['rate<0.005'].ok, false);
  });

  it('stops at init with one line when credentials are missing (exit 107)', async () => {
    const result = await runLoadlab([join(bundles, 'scenarios/smoke/api-health.js'), '-q'], {
      env: { BASE_URL: services.sandbox.url },
    });
    assert.equal(result.code, 107);
    assert.match(result.stderr, /DEMO_EMAIL and DEMO_PASSWORD must be set/);
  });
});
