// Puts real runs into an InfluxDB 1.x for the dashboard query tests: the project's Node runner runs
// every suite bundle that records a metric of its own (and smoke) against the real sandbox and streams
// them with k6's v1 output (`-o influxdb=...`), as `npm run stream:influx:local` does, only shorter,
// all under one testid. The stress run asks the sandbox for faults, so degraded_responses has samples.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startTestSandbox, TEST_CREDENTIALS } from '../../k6/testing/run-bundle.js';
import { runCommand } from '../../devkit/command.js';
import { EXIT } from '@loadlab/k6-format/exit-codes';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SMOKE_BUNDLE = 'dist/k6/scenarios/smoke/api-health.js';

const SHORT = ['--vus', '2', '--duration', '2s'];
/** Each bundle with its k6 flags and env; CLI --vus/--duration replace a scenario with k6's "default". */
const RUNS: Array<{ bundle: string; args: string[]; env?: Record<string, string> }> = [
  { bundle: SMOKE_BUNDLE, args: SHORT },
  { bundle: 'dist/k6/scenarios/load/api-auth.js', args: SHORT },
  { bundle: 'dist/k6/scenarios/load/api-users.js', args: SHORT },
  { bundle: 'dist/k6/scenarios/load/mixed-traffic.js', args: SHORT },
  { bundle: 'dist/k6/journeys/login-flow.js', args: SHORT },
  { bundle: 'dist/k6/journeys/authenticated-user.js', args: SHORT },
  { bundle: 'dist/k6/scenarios/spike/api-spike.js', args: SHORT },
  { bundle: 'dist/k6/scenarios/stress/api-breakpoint.js', args: SHORT, env: { LT_FAULT_ERROR_RATE: '0.5' } },
  // Sized by env so the browser scenario (browser_login) and its browser stay.
  {
    bundle: 'dist/k6/scenarios/browser/login-page.js',
    args: [],
    env: { LT_BROWSER_VUS: '1', LT_BROWSER_ITERATIONS: '1' },
  },
];

export interface StreamedRun {
  testid: string;
  /** The scenario tags the runs carry: "default" for the CLI-shortened ones, and browser_login. */
  scenarios: string[];
  /** Time window that holds every point, in ms since the epoch (Grafana's $timeFilter). */
  fromMs: number;
  toMs: number;
}

async function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  const { code, output } = await runCommand(command, args, { cwd: ROOT, env, timeoutMs: 300_000 });
  return { code: code ?? 1, output: output.slice(-4000) };
}

/** Short real runs of the suite on the Node runner, streamed with the k6 v1 InfluxDB output. */
export async function streamSuiteRuns(influxUrl: string, db: string, runs = RUNS): Promise<StreamedRun> {
  const testid = `dashboards-test-${Date.now()}`;
  // The runs' summaries go to a folder of their own, removed at the end: results/ is the user's.
  const summaries = mkdtempSync(join(tmpdir(), 'loadlab-dashboard-runs-'));
  const env = {
    ...process.env,
    ...TEST_CREDENTIALS,
    LOG_LEVEL: 'silent',
    LT_THINK_TIME: '0.2',
    LT_RESULTS_DIR: summaries,
  };
  if (!runs.every((r) => existsSync(`${ROOT}/${r.bundle}`))) {
    const build = await run('npm', ['run', '--silent', 'build:k6'], env);
    if (build.code !== 0) throw new Error(`npm run build:k6 failed: ${build.output}`);
  }
  // Fault injection on, with no default faults: only a run that asks (LT_FAULT_*) gets them.
  const sandbox = await startTestSandbox({ enabled: true, latencyMs: 0, errorRate: 0 });
  const fromMs = Date.now() - 60_000;
  try {
    for (const r of runs) {
      const result = await run(
        process.execPath,
        [
          'bin/loadlab.js',
          'run',
          r.bundle,
          '-o',
          `influxdb=${influxUrl}/${db}`,
          ...r.args,
          '--tag',
          `testid=${testid}`,
          '-e',
          `BASE_URL=${sandbox.url}`,
          '-q',
        ],
        { ...env, ...r.env },
      );
      // Thresholds held or some crossed (the faulty stress run): both wrote their points.
      if (result.code !== EXIT.ok && result.code !== EXIT.thresholds)
        throw new Error(`${r.bundle}: runner exited ${result.code}: ${result.output}`);
    }
  } finally {
    await sandbox.close();
    rmSync(summaries, { recursive: true, force: true });
  }
  return { testid, scenarios: ['default', 'browser_login'], fromMs, toMs: Date.now() + 60_000 };
}

/** The smoke run alone (2 VUs, 2 s): one Node-runner instance next to a distributed run. */
export function streamRunnerSmoke(influxUrl: string, db: string): Promise<StreamedRun> {
  return streamSuiteRuns(influxUrl, db, [RUNS[0]!]);
}
