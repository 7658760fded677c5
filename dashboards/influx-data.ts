// Puts a real run into an InfluxDB 1.x for the dashboard query tests: the project's Node runner runs
// the suite's smoke bundle against the real sandbox and streams it with k6's v1 output
// (`-o influxdb=...`), exactly as `npm run test:smoke:influx:local` does, only shorter.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { startSandbox } from '../services/sandbox/main.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const SMOKE_BUNDLE = 'dist/k6/scenarios/smoke/api-health.js';

export interface StreamedRun {
  testid: string;
  scenario: string;
  /** Time window that holds every point, in ms since the epoch (Grafana's $timeFilter). */
  fromMs: number;
  toMs: number;
}

function run(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.stderr.on('data', (c: Buffer) => (output = (output + c.toString()).slice(-4000)));
    child.once('error', reject);
    child.once('exit', (code) => resolve({ code: code ?? 1, output }));
  });
}

/** A real smoke run of the suite on the Node runner (2 VUs, 3 s), streamed with the k6 v1 InfluxDB output. */
export async function streamRunnerSmoke(influxUrl: string, db: string): Promise<StreamedRun> {
  const testid = `dashboards-test-${Date.now()}`;
  const env = {
    ...process.env,
    DEMO_EMAIL: 'dashboards-test@loadlab.local',
    DEMO_PASSWORD: `pw-${process.pid}-${Date.now()}`,
    LOG_LEVEL: 'silent',
  };
  if (!existsSync(`${ROOT}/${SMOKE_BUNDLE}`)) {
    const build = await run('npm', ['run', '--silent', 'build:k6'], env);
    if (build.code !== 0) throw new Error(`npm run build:k6 failed: ${build.output}`);
  }
  const sandbox = await startSandbox({ ...env, PORT: '0', HOST: '127.0.0.1' });
  const fromMs = Date.now() - 60_000;
  try {
    const result = await run(
      process.execPath,
      [
        'bin/loadlab.js',
        'run',
        SMOKE_BUNDLE,
        '-o',
        `influxdb=${influxUrl}/${db}`,
        '--vus',
        '2',
        '--duration',
        '3s',
        '--tag',
        `testid=${testid}`,
        '-e',
        `BASE_URL=${sandbox.url}`,
        '-q',
      ],
      env,
    );
    // 0 = thresholds held, 99 = some crossed: both are complete runs whose points were written.
    if (result.code !== 0 && result.code !== 99)
      throw new Error(`runner exited ${result.code}: ${result.output}`);
  } finally {
    await sandbox.close();
  }
  // A CLI --vus/--duration replaces the script's scenarios with k6's implicit one, named "default".
  return { testid, scenario: 'default', fromMs, toMs: Date.now() + 60_000 };
}
