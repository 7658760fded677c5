// `npm run bench:clinic`: the clinic next to a minimal Express app answering a fixed owner JSON, in
// one command. Goal: GET /owners/{id} at least 0.8x the minimal Express app.
// Both targets run at once, each in its own process, and every case alternates between them in
// one-second rounds (BENCH_SECONDS rounds each): on a shared machine a burst of outside load then
// hits both sides alike instead of whichever happened to run at that moment. Besides req/s, the
// server process's own CPU time per request (from /proc) is reported: it measures the work a request
// costs, which outside load on a shared machine barely changes.
import autocannon from 'autocannon';
import { readFileSync } from 'node:fs';
import { CONNECTIONS, SECONDS, startTarget, table, type Case, type Target } from './lib/measure.js';

const TICKS_PER_SECOND = 100; // USER_HZ on Linux

/** User + system CPU seconds a process has used so far (Linux /proc), or NaN elsewhere. */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the ")" of the command name: utime and stime are the 12th and 13th.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
  } catch {
    return Number.NaN;
  }
}

const owner = JSON.stringify({
  firstName: 'Bench',
  lastName: 'Mark',
  address: '1 Load St.',
  city: 'Perfville',
  telephone: '6085551234',
});

// Cases that create data (POST) come last so they do not grow what the reads before them return.
const CASES: Case[] = [
  { name: 'GET /owners', path: '/petclinic/api/owners' },
  { name: 'GET /owners/{id}', path: '/petclinic/api/owners/1' },
  { name: 'POST /owners', method: 'POST', path: '/petclinic/api/owners', body: owner },
];
const KINDS = ['clinic', 'express'] as const;
const ROUNDS = Math.max(1, Math.round(SECONDS));

interface Tally {
  requests: number;
  seconds: number;
  cpu: number;
  errors: number;
  times: number[];
}

function round(target: Target, c: Case, seconds: number, tally?: Tally): Promise<void> {
  const cpuBefore = cpuSeconds(target.pid);
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${target.url}${c.path}`,
        method: c.method ?? 'GET',
        body: c.body,
        headers: c.body ? { 'content-type': 'application/json' } : {},
        connections: CONNECTIONS,
        duration: seconds,
      },
      (error, result) => {
        if (error) return reject(error);
        if (tally) {
          tally.requests += result.requests.total;
          tally.seconds += seconds;
          tally.cpu += cpuSeconds(target.pid) - cpuBefore;
          tally.errors += result.errors + result.non2xx;
        }
        resolve();
      },
    );
    if (tally) instance.on('response', (_client, _status, _bytes, ms) => tally.times.push(ms));
  });
}

console.log(
  `bench:clinic: ${ROUNDS} alternating 1s rounds x ${CONNECTIONS} connections per case and target, targets in their own process\n`,
);
const targets = new Map<string, Target>();
for (const kind of KINDS) targets.set(kind, await startTarget(kind));
const results = new Map<string, Tally[]>(KINDS.map((k) => [k, []]));
try {
  for (const c of CASES) {
    for (const kind of KINDS) await round(targets.get(kind)!, c, 1); // warm-up: JIT, not measured
    const tallies = new Map<string, Tally>(
      KINDS.map((k) => [k, { requests: 0, seconds: 0, cpu: 0, errors: 0, times: [] }]),
    );
    for (let r = 0; r < ROUNDS; r++) {
      // Alternate who goes first, so neither side always follows the other's leftovers.
      const order = r % 2 === 0 ? KINDS : [...KINDS].reverse();
      for (const kind of order) await round(targets.get(kind)!, c, 1, tallies.get(kind));
    }
    for (const kind of KINDS) results.get(kind)!.push(tallies.get(kind)!);
  }
} finally {
  for (const target of targets.values()) await target.stop();
}

const p95 = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))]! : 0;
};
const rps = (t: Tally) => t.requests / t.seconds;
const cpuPerRequest = (t: Tally) => (t.cpu / t.requests) * 1e6;
const rows = CASES.map((c, i) => {
  const [clinic, express] = KINDS.map((k) => results.get(k)![i]!) as [Tally, Tally];
  return [
    c.name,
    rps(clinic).toFixed(0),
    `${p95(clinic.times).toFixed(1)}ms`,
    `${cpuPerRequest(clinic).toFixed(0)}us`,
    rps(express).toFixed(0),
    `${p95(express.times).toFixed(1)}ms`,
    `${cpuPerRequest(express).toFixed(0)}us`,
    `${(rps(clinic) / rps(express)).toFixed(2)}x`,
    `${(cpuPerRequest(express) / cpuPerRequest(clinic)).toFixed(2)}x`,
  ];
});
console.log(
  table([
    [
      'case',
      'clinic req/s',
      'clinic p95',
      'clinic cpu/req',
      'express req/s',
      'express p95',
      'express cpu/req',
      'req/s ratio',
      'cpu ratio',
    ],
    ...rows,
  ]),
);
console.log('\nratios are clinic/express (req/s) and express/clinic (cpu per request): 1.00x = as cheap');
const errors = [...results.values()].flat().reduce((n, t) => n + t.errors, 0);
if (errors > 0) console.log(`\nwarning: ${errors} errors or non-2xx answers during the runs`);
const byId = rows[1]!;
console.log(
  `GET /owners/{id}: ${byId[7]} the req/s and ${byId[8]} the CPU efficiency of the minimal Express app (goal: at least 0.80x)`,
);
