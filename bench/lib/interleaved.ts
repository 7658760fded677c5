// Compares a service with reference servers on the same cases, all running at once (each in its own
// process) and measured in short interleaved rounds that rotate who goes first; each req/s and p95
// is the median over the rounds. On a shared machine the load drifts over a minute, and measuring
// one target after the other would charge that drift to whichever ran last. Next to req/s it
// prints the CPU time each target spent per request (from /proc), which outside load disturbs far
// less: the work a request costs.
import { CONNECTIONS, SECONDS, cpuSeconds, measure, startTarget, table, type Case } from './measure.js';
import { median } from './engine-run.js';

const ROUND_SECONDS = 1;
const ROUNDS = Math.max(3, Math.round(SECONDS / ROUND_SECONDS));

export interface Comparison {
  /** Median req/s of `kind` on the case at `index`. */
  rps(kind: string, index: number): number;
  /** Microseconds of the target's CPU per request on that case, over all rounds. */
  cpuPerRequest(kind: string, index: number): number;
}

interface Tally {
  rps: number[];
  p95: number[];
  cpuSeconds: number;
  requests: number;
}

/** Runs every case on every target and prints the req/s, p95 and CPU tables with subject/reference ratios. */
export async function compareInterleaved(
  title: string,
  subject: string,
  references: string[],
  cases: Case[],
): Promise<Comparison> {
  const kinds = [subject, ...references];
  console.log(
    `${title}: ${ROUNDS} interleaved rounds of ${ROUND_SECONDS}s x ${CONNECTIONS} connections per case and ` +
      `target (median shown), targets in their own processes\n`,
  );
  const targets = await Promise.all(kinds.map((kind) => startTarget(kind)));
  const tallies = new Map<string, Tally>(); // key: `${kind} ${case index}`
  const tally = (kind: string, i: number) => tallies.get(`${kind} ${i}`)!;
  let errors = 0;
  try {
    // Cases run in order: those that create data (POST) should come last so they do not grow
    // what the reads before them return.
    for (const [i, c] of cases.entries()) {
      for (const kind of kinds) tallies.set(`${kind} ${i}`, { rps: [], p95: [], cpuSeconds: 0, requests: 0 });
      for (const target of targets) await measure(target, c, ROUND_SECONDS); // warm-up: JIT, not measured
      for (let round = 0; round < ROUNDS; round++) {
        for (let k = 0; k < kinds.length; k++) {
          const index = (k + round) % kinds.length;
          const target = targets[index]!;
          const cpuBefore = cpuSeconds(target.pid);
          const m = await measure(target, c, ROUND_SECONDS);
          const t = tally(kinds[index]!, i);
          t.cpuSeconds += cpuSeconds(target.pid) - cpuBefore;
          t.requests += m.rps * ROUND_SECONDS;
          t.rps.push(m.rps);
          t.p95.push(m.p95Ms);
          errors += m.errors;
        }
      }
    }
  } finally {
    await Promise.all(targets.map((t) => t.stop()));
  }

  const result: Comparison = {
    rps: (kind, i) => median(tally(kind, i).rps),
    cpuPerRequest: (kind, i) => (tally(kind, i).cpuSeconds / tally(kind, i).requests) * 1e6,
  };
  const p95 = (kind: string, i: number) => median(tally(kind, i).p95);
  console.log(
    table([
      [
        'case',
        ...kinds.flatMap((k) => [`${k} req/s`, `${k} p95`]),
        ...references.map((r) => `${subject}/${r}`),
      ],
      ...cases.map((c, i) => [
        c.name,
        ...kinds.flatMap((k) => [result.rps(k, i).toFixed(0), `${p95(k, i).toFixed(1)}ms`]),
        ...references.map((r) => `${(result.rps(subject, i) / result.rps(r, i)).toFixed(2)}x`),
      ]),
    ]),
  );
  console.log('\nCPU time of the target per request (less sensitive to other load on the machine):\n');
  console.log(
    table([
      ['case', ...kinds.map((k) => `${k} µs/req`), ...references.map((r) => `${r}/${subject} (cost ratio)`)],
      ...cases.map((c, i) => [
        c.name,
        ...kinds.map((k) => result.cpuPerRequest(k, i).toFixed(0)),
        ...references.map(
          (r) => `${(result.cpuPerRequest(r, i) / result.cpuPerRequest(subject, i)).toFixed(2)}x`,
        ),
      ]),
    ]),
  );
  if (errors > 0) console.log(`\nwarning: ${errors} errors or non-2xx answers during the runs`);
  return result;
}

/** One line: how the subject compares with a reference on one case, against a goal ratio. */
export function goalLine(
  cmp: Comparison,
  label: string,
  subject: string,
  reference: string,
  index: number,
  goal: number,
): string {
  const ratio = cmp.rps(subject, index) / cmp.rps(reference, index);
  const cost = cmp.cpuPerRequest(reference, index) / cmp.cpuPerRequest(subject, index);
  return (
    `\n${label}: ${ratio.toFixed(2)}x the ${reference} reference in req/s, ${cost.toFixed(2)}x in CPU per request ` +
    `(goal >= ${goal.toFixed(2)}x): ${ratio >= goal ? 'met' : 'MISSED'} in req/s`
  );
}
