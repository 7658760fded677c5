// `npm run bench:sandbox`: the sandbox next to a bare node:http server and a minimal Express app
// answering the same JSON, in one command. Goal: /health at least 0.9x the minimal Express app.
//
// The three targets run side by side (each in its own process) and are measured in short
// interleaved rounds, rotating which goes first; each figure is the median over the rounds. On a
// shared machine the load drifts over a minute, and measuring one target after the other would
// charge that drift to whichever ran last. Next to req/s it prints the CPU time each target spent
// per request (from /proc), which the other processes on the machine disturb far less.
import { readFileSync } from 'node:fs';
import { SANDBOX_BENCH_CREDENTIALS } from './lib/serve.js';
import {
  CONNECTIONS,
  SECONDS,
  measure,
  startTarget,
  table,
  type Case,
  type Measurement,
} from './lib/measure.js';

const SUBJECT = 'sandbox';
const REFERENCES = ['express', 'bare'];
const ROUND_SECONDS = 1;
const ROUNDS = Math.max(3, Math.round(SECONDS / ROUND_SECONDS));

const CASES: Case[] = [
  { name: 'GET /health', path: '/health' },
  { name: 'GET /api/users', path: '/api/users' },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    path: '/api/auth/login',
    body: JSON.stringify(SANDBOX_BENCH_CREDENTIALS),
  },
];

/** CPU seconds (user + system) a process has used so far; Linux only, NaN elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name: state is field 3, utime 14, stime 15 (in clock ticks).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

const kinds = [SUBJECT, ...REFERENCES];
console.log(
  `bench:sandbox: ${ROUNDS} interleaved rounds of ${ROUND_SECONDS}s x ${CONNECTIONS} connections per case and target ` +
    `(median shown), targets in their own processes\n`,
);
const targets = await Promise.all(kinds.map((kind) => startTarget(kind)));
const rounds = new Map<string, Measurement[]>(); // key: `${kind} ${case index}`
const cpu = new Map<string, { seconds: number; requests: number }>();
let errors = 0;
try {
  for (const [i, c] of CASES.entries()) {
    // Warm-up so JIT compilation is not measured.
    for (const target of targets) await measure(target, c, ROUND_SECONDS);
    for (let round = 0; round < ROUNDS; round++) {
      for (let k = 0; k < kinds.length; k++) {
        const index = (k + round) % kinds.length;
        const cpuBefore = cpuSeconds(targets[index]!.pid);
        const m = await measure(targets[index]!, c, ROUND_SECONDS);
        const cpuUsed = cpuSeconds(targets[index]!.pid) - cpuBefore;
        errors += m.errors;
        const key = `${kinds[index]} ${i}`;
        const spent = cpu.get(key) ?? { seconds: 0, requests: 0 };
        cpu.set(key, { seconds: spent.seconds + cpuUsed, requests: spent.requests + m.rps * ROUND_SECONDS });
        rounds.set(key, [...(rounds.get(key) ?? []), m]);
      }
    }
  }
} finally {
  await Promise.all(targets.map((t) => t.stop()));
}

const rps = (kind: string, i: number) => median(rounds.get(`${kind} ${i}`)!.map((m) => m.rps));
const p95 = (kind: string, i: number) => median(rounds.get(`${kind} ${i}`)!.map((m) => m.p95Ms));
/** Microseconds of the target's CPU per request, over all rounds. */
const cpuPerRequest = (kind: string, i: number) => {
  const spent = cpu.get(`${kind} ${i}`)!;
  return (spent.seconds / spent.requests) * 1e6;
};
const header = [
  'case',
  ...kinds.flatMap((k) => [`${k} req/s`, `${k} p95`]),
  ...REFERENCES.map((r) => `${SUBJECT}/${r}`),
];
const rows = CASES.map((c, i) => [
  c.name,
  ...kinds.flatMap((k) => [rps(k, i).toFixed(0), `${p95(k, i).toFixed(1)}ms`]),
  ...REFERENCES.map((r) => `${(rps(SUBJECT, i) / rps(r, i)).toFixed(2)}x`),
]);
console.log(table([header, ...rows]));
console.log('\nCPU time of the target per request (less sensitive to other load on the machine):\n');
console.log(
  table([
    ['case', ...kinds.map((k) => `${k} µs/req`), ...REFERENCES.map((r) => `${r}/${SUBJECT} (cost ratio)`)],
    ...CASES.map((c, i) => [
      c.name,
      ...kinds.map((k) => cpuPerRequest(k, i).toFixed(0)),
      ...REFERENCES.map((r) => `${(cpuPerRequest(r, i) / cpuPerRequest(SUBJECT, i)).toFixed(2)}x`),
    ]),
  ]),
);
const healthRatio = rps(SUBJECT, 0) / rps('express', 0);
const healthCost = cpuPerRequest('express', 0) / cpuPerRequest(SUBJECT, 0);
console.log(
  `\n/health: ${healthRatio.toFixed(2)}x the minimal Express app in req/s, ${healthCost.toFixed(2)}x in CPU per ` +
    `request (goal >= 0.90x): ${healthRatio >= 0.9 ? 'met' : 'MISSED'} in req/s`,
);
if (errors > 0) console.log(`warning: ${errors} errors or non-2xx answers during the runs`);
