// `npm run bench:auth`: does a wrong-password flood on the secured clinic (9967) slow the open one
// (9966) sharing its process, as `npm run start:clinic` and `start:services` run them? Starts both
// instances in one child process, measures the open instance's latency alone (baseline), then again
// while autocannon floods the secured instance with wrong passwords for a real user, and prints the
// latencies and their ratios to the baseline. Then a valid user's first login on the
// secured instance, idle and during each of three floods (lib/login-floods.ts), as a ratio to idle.
// Bounded: BENCH_SECONDS per phase (default 5, at most 60), BENCH_CONNECTIONS flood connections
// (default 50), at most 20,000 probe requests per phase, 1,000 requests per one-shot flood.
import autocannon from 'autocannon';
import { randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { freePort, stopChild } from '../devkit/processes.js';
import { startScript, untilHealthy } from '../devkit/script-process.js';
import { basic, floods, timedLogin } from './lib/login-floods.js';
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
const LOGINS_PER_PHASE = 3;

/** Users created through POST /users, each logging in for the first time once (never cached). */
async function createUsers(count: number): Promise<string[]> {
  const names = Array.from({ length: count }, (_, i) => `bench-user-${i}`);
  for (const username of names) {
    const res = await fetch(`http://127.0.0.1:${securePort}/petclinic/api/users`, {
      method: 'POST',
      headers: { authorization: basic('bench-admin', password), 'content-type': 'application/json' },
      body: JSON.stringify({
        username,
        password: `${username}-${password}`,
        roles: [{ name: 'OWNER_ADMIN' }],
      }),
    });
    if (res.status !== 201) throw new Error(`POST /users answered ${res.status}`);
  }
  return names;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A valid user's first login, idle and during each flood, as a ratio to the idle time. */
async function firstLogins(): Promise<void> {
  const phases = floods(securePort, PROBE_PATH, 'bench-admin', SECONDS, CONNECTIONS);
  const users = await createUsers(LOGINS_PER_PHASE * (phases.length + 1));
  const login = async () => {
    const user = users.shift()!;
    return timedLogin(secure, user, `${user}-${password}`);
  };
  const idle: number[] = [];
  for (let i = 0; i < LOGINS_PER_PHASE; i++) idle.push((await login()).ms);
  const rows = [['first login of a valid user', 'median ms', 'max ms', '/ idle', 'statuses']];
  rows.push(['idle', median(idle).toFixed(1), Math.max(...idle).toFixed(1), '1.00x', '200']);
  for (const phase of phases) {
    const running = phase.start();
    await new Promise((r) => setTimeout(r, 100)); // the flood has arrived
    const times: { ms: number; status: number }[] = [];
    for (let i = 0; i < LOGINS_PER_PHASE; i++) times.push(await login());
    await running;
    const ms = times.map((t) => t.ms);
    rows.push([
      phase.name,
      median(ms).toFixed(1),
      Math.max(...ms).toFixed(1),
      `${(median(ms) / median(idle)).toFixed(2)}x`,
      [...new Set(times.map((t) => (t.status === 0 ? 'no answer' : String(t.status))))].join(' '),
    ]);
    await new Promise((r) => setTimeout(r, 1000)); // let the queue empty before the next flood
  }
  console.log(table(rows));
}
const [openPort, securePort] = [await freePort(), await freePort()];
// Bounded: the phases, the first logins and their floods take well under ten times BENCH_SECONDS plus a minute.
const clinic = startScript(MAIN, {
  killAfterMs: (SECONDS * 10 + 60) * 1000,
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
});
const open = `http://127.0.0.1:${openPort}${PROBE_PATH}`;
const secure = `http://127.0.0.1:${securePort}${PROBE_PATH}`;
try {
  await untilHealthy(clinic, open, 30_000);
  await probeLatencies(open, 1); // warm-up
  const baseline = await probeLatencies(open, SECONDS);
  let floodResult: autocannon.Result | undefined;
  let n = 0;
  const flood = new Promise<void>((resolve, reject) => {
    autocannon(
      {
        url: secure,
        connections: CONNECTIONS,
        duration: SECONDS + 1,
        // A new wrong password each time: identical checks in flight are shared, distinct ones are not.
        requests: [
          {
            setupRequest: (req) => ({
              ...req,
              headers: { authorization: basic('bench-admin', `not-${password}-${n++}`) },
            }),
          },
        ],
      },
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
  await firstLogins();
} finally {
  await stopChild(clinic.child);
}
