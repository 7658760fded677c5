// `npm run bench:auth`: does a wrong-password flood on the secured clinic (9967) slow the open one
// (9966) sharing its process, as `npm run start:clinic` and `start:services` run them? Starts both
// instances in one child process, measures the open instance's latency alone (baseline), then again
// while autocannon floods the secured instance with wrong passwords for a real user, and prints the
// latencies and their ratios to the baseline. Bounded: BENCH_SECONDS per phase (default 5, at most
// 60), BENCH_CONNECTIONS flood connections (default 50), at most 20,000 probe requests per phase.
import autocannon from 'autocannon';
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, pollUntil, stopChild } from '../devkit/processes.js';
import { CONNECTIONS, SECONDS, table } from './lib/measure.js';

const MAX_PROBES = 20_000;
const MAIN = fileURLToPath(new URL('../services/clinic/main.ts', import.meta.url));
const PROBE_PATH = '/petclinic/api/owners/1';

function quantile(sorted: number[], q: number): number {
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))]! : Number.NaN;
}

/** One request after the other on one keep-alive connection for `seconds`: each one's latency. */
async function probeLatencies(url: string, seconds: number): Promise<number[]> {
  const times: number[] = [];
  const until = Date.now() + seconds * 1000;
  while (Date.now() < until && times.length < MAX_PROBES) {
    const start = process.hrtime.bigint();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`probe answered ${res.status}`);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b);
}

const password = randomBytes(18).toString('base64url');
const [openPort, securePort] = [await freePort(), await freePort()];
const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
  env: {
    ...process.env,
    CLINIC_INSTANCE: 'both',
    CLINIC_HOST: '127.0.0.1',
    CLINIC_PORT: String(openPort),
    CLINIC_SECURE_PORT: String(securePort),
    ADMIN_USER: 'bench-admin',
    ADMIN_PASSWORD: password,
    LOG_LEVEL: 'silent',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const open = `http://127.0.0.1:${openPort}${PROBE_PATH}`;
const secure = `http://127.0.0.1:${securePort}${PROBE_PATH}`;
try {
  await pollUntil('the clinic', async () => ((await fetch(open)).ok ? true : undefined), 30_000);
  await probeLatencies(open, 1); // warm-up
  const baseline = await probeLatencies(open, SECONDS);
  const wrong = `Basic ${Buffer.from(`bench-admin:not-${password}`).toString('base64')}`;
  let floodResult: autocannon.Result | undefined;
  const flood = new Promise<void>((resolve, reject) => {
    autocannon(
      { url: secure, connections: CONNECTIONS, duration: SECONDS + 1, headers: { authorization: wrong } },
      (error, result) => (error ? reject(error) : ((floodResult = result), resolve())),
    );
  });
  await new Promise((r) => setTimeout(r, 500)); // let the flood fill its connections
  const underFlood = await probeLatencies(open, SECONDS);
  await flood;
  const rows = [
    ['9966 GET /owners/1', 'requests', 'p50 ms', 'p95 ms', 'p99 ms'],
    ...[
      ['baseline', baseline],
      ['9967 flooded', underFlood],
    ].map(([name, t]) => {
      const times = t as number[];
      return [
        name as string,
        String(times.length),
        ...[0.5, 0.95, 0.99].map((q) => quantile(times, q).toFixed(2)),
      ];
    }),
  ];
  console.log(
    `bench:auth: ${SECONDS} s per phase, ${CONNECTIONS} flood connections, both instances in one process`,
  );
  console.log(table(rows));
  const ratio = (q: number) => (quantile(underFlood, q) / quantile(baseline, q)).toFixed(2);
  const statuses = floodResult
    ? `${floodResult['4xx']} 4xx, ${floodResult['2xx']} 2xx, ${floodResult['5xx']} 5xx`
    : '';
  console.log(
    `flood on 9967: ${((floodResult?.requests.total ?? 0) / (SECONDS + 1)).toFixed(0)} wrong-password req/s (${statuses})`,
  );
  console.log(
    `9966 latency under the flood / baseline: p50 ${ratio(0.5)}x, p95 ${ratio(0.95)}x, p99 ${ratio(0.99)}x`,
  );
  const added = (q: number) => {
    const ms = quantile(underFlood, q) - quantile(baseline, q);
    return `${ms >= 0 ? '+' : ''}${ms.toFixed(2)} ms`;
  };
  console.log(`9966 latency added by the flood: p50 ${added(0.5)}, p95 ${added(0.95)}, p99 ${added(0.99)}`);
} finally {
  await stopChild(child);
}
