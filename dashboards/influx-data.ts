// Puts a real k6-schema run into an InfluxDB 1.x for the dashboard query tests. Preferred: the
// project's Node runner streams a real smoke run against the real sandbox (`-o influxdb=...`). Until
// the runner, the bundles and the sandbox are all in the repository, the points of real k6 v1.3 runs
// from reference/k6-samples are written instead: the line-protocol capture verbatim, plus the
// `vus`/`vus_max` gauges of points-head.ndjson (a run too short for the capture to hold any), encoded
// the way k6's v1 output encodes points and tagged with the capture's run tag testid=demo-1.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const REFERENCE = '/work/shared/reference/k6-samples';
export const SMOKE_BUNDLE = 'dist/k6/scenarios/smoke/api-health.js';

export interface StreamedRun {
  source: 'node-runner' | 'reference-capture';
  testid: string;
  scenario: string;
  /** Time window that holds every point, in ms since the epoch (Grafana's $timeFilter). */
  fromMs: number;
  toMs: number;
}

export function runnerAvailable(): boolean {
  return ['bin/loadlab.js', 'services/sandbox/main.ts', 'scripts/build-k6.ts'].every((f) =>
    existsSync(`${ROOT}/${f}`),
  );
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

/** A real smoke run of the suite on the Node runner, streamed with the k6 v1 InfluxDB output. */
export async function streamRunnerSmoke(influxUrl: string, db: string): Promise<StreamedRun> {
  const testid = `dashboards-test-${Date.now()}`;
  const env = {
    ...process.env,
    DEMO_EMAIL: 'dashboards-test@loadlab.local',
    DEMO_PASSWORD: `pw-${process.pid}-${Date.now()}`,
    LOG_LEVEL: 'silent',
  };
  const sandboxModule = `${ROOT}/services/sandbox/main.ts`;
  const { startSandbox } = (await import(sandboxModule)) as {
    startSandbox(env: NodeJS.ProcessEnv): Promise<{ url: string; close(): Promise<void> }>;
  };
  const sandbox = await startSandbox({ ...env, PORT: '0', HOST: '127.0.0.1' });
  const fromMs = Date.now() - 60_000;
  await fetch(`${influxUrl}/query`, {
    method: 'POST',
    body: new URLSearchParams({ q: `CREATE DATABASE "${db}"` }),
  });
  try {
    if (!existsSync(`${ROOT}/${SMOKE_BUNDLE}`)) {
      const build = await run('npm', ['run', '--silent', 'build:k6'], env);
      if (build.code !== 0) throw new Error(`npm run build:k6 failed: ${build.output}`);
    }
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
        // Explicit, in case an engine does not pass system variables through to __ENV.
        '-e',
        `DEMO_EMAIL=${env.DEMO_EMAIL}`,
        '-e',
        `DEMO_PASSWORD=${env.DEMO_PASSWORD}`,
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
  return { source: 'node-runner', testid, scenario: 'default', fromMs, toMs: Date.now() + 60_000 };
}

/** Encodes one k6 sample as k6's v1 output does: sorted tags without empty values, `url` as a field. */
export function k6LineProtocol(
  metric: string,
  tags: Record<string, string>,
  value: number,
  timeNs: bigint,
): string {
  const escapeKey = (s: string) => s.replace(/[,= ]/g, '\\$&');
  const tagText = Object.keys(tags)
    .filter((k) => k !== 'url' && tags[k] !== '')
    .sort()
    .map((k) => `,${escapeKey(k)}=${escapeKey(tags[k] ?? '')}`)
    .join('');
  const fields = [
    ...(tags.url ? [`url="${tags.url.replace(/["\\]/g, '\\$&')}"`] : []),
    `value=${String(value)}`,
  ].join(',');
  return `${escapeKey(metric)}${tagText} ${fields} ${timeNs}`;
}

function referenceLines(): { lines: string[]; testid: string } {
  const capture = readFileSync(`${REFERENCE}/influxdb-v1-write-capture.txt`, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('###'));
  const testid = /testid=([^, ]+)/.exec(capture[0] ?? '')?.[1];
  if (!testid) throw new Error('reference capture has no testid tag');
  // Move the gauges next to the capture in time, one per second as k6 emits them.
  const firstNs = BigInt(/ (\d+)$/.exec(capture[0] ?? '')?.[1] ?? '0');
  const gauges = readFileSync(`${REFERENCE}/points-head.ndjson`, 'utf8')
    .split('\n')
    .filter((line) => line.includes('"type":"Point"'))
    .map(
      (line) => JSON.parse(line) as { metric: string; data: { value: number; tags: Record<string, string> } },
    )
    .filter((p) => p.metric === 'vus' || p.metric === 'vus_max')
    .map((p, i) =>
      k6LineProtocol(
        p.metric,
        { ...p.data.tags, testid },
        p.data.value,
        firstNs + BigInt(i) * 1_000_000_000n,
      ),
    );
  return { lines: [...capture, ...gauges], testid };
}

/** Writes the reference points through the v1 `/write` API, exactly as k6's output posts them. */
export async function writeReferenceCapture(influxUrl: string, db: string): Promise<StreamedRun> {
  const { lines, testid } = referenceLines();
  await fetch(`${influxUrl}/query`, {
    method: 'POST',
    body: new URLSearchParams({ q: `CREATE DATABASE "${db}"` }),
  });
  const response = await fetch(`${influxUrl}/write?db=${db}&precision=ns`, {
    method: 'POST',
    body: lines.join('\n'),
  });
  if (response.status !== 204) throw new Error(`write failed: ${response.status} ${await response.text()}`);
  const times = lines.map((line) => Number(BigInt(/ (\d+)$/.exec(line)?.[1] ?? '0') / 1_000_000n));
  return {
    source: 'reference-capture',
    testid,
    scenario: 'default',
    fromMs: Math.min(...times) - 60_000,
    toMs: Math.max(...times) + 60_000,
  };
}
