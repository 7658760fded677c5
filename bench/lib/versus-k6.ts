// The runner next to real k6, both from their command lines on the same script and target:
// alternating runs (the first of each pair alternates too, so a machine getting busier is charged
// to neither), the median of the pairs' runner/k6 ratios of req/s and CPU per request, and
// memory per VU at a high VU count. With the target's request count, each run's CPU is also split
// by phase (start, warm-up, steady state, end: run-phases.ts), and the steady state by thread.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runSplit } from './split-runs.js';
import { median, runEngine, type EngineRunResult } from './engine-run.js';
import { WARMUP_MS, type ThreadKindSplit } from './run-phases.js';

export interface VersusCase {
  vus: number;
  /** Two checks per iteration on the response (status and body). */
  checks: boolean;
}

const SCRIPT = (checks: boolean) =>
  [
    "import http from 'k6/http';",
    "import { check } from 'k6';",
    'export default function () {',
    '  const res = http.get(__ENV.URL);',
    checks
      ? "  check(res, { 'status is 200': (r) => r.status === 200, 'body is ok': (r) => r.body === 'ok' });"
      : '',
    '}',
    '',
  ].join('\n');

/** The runner's side (real k6 is devkit's realK6()). */
export interface Engines {
  /** The runner's bin/loadlab.js. */
  loadlab: string;
  /** The target's answered requests so far: each run's CPU is then split by phase. */
  requests?: () => Promise<number>;
  /** BENCH_SPLIT: each pair also runs the runner as this many processes at once (lib/split-runs.ts). */
  split?: number;
}

function run(
  engines: Engines,
  engine: 'k6' | 'runner',
  script: string,
  vus: number,
  seconds: number,
  dir: string,
  url: string,
): Promise<EngineRunResult> {
  // The runner has one thread per VU; k6's goroutines share a few threads.
  const watch = engines.requests && { vus: engine === 'runner' ? vus : 0, requests: engines.requests };
  return runEngine({
    engine,
    // The text summary goes to a stdout nobody reads: k6 writes no --summary-export without it.
    args: [script, '--vus', String(vus), '--duration', `${seconds}s`, '-q'],
    loadlab: engines.loadlab,
    dir,
    env: { URL: url, K6_NO_USAGE_REPORT: 'true' },
    timeoutMs: (seconds + 60) * 1000,
    watch,
  });
}

const kind = (k: ThreadKindSplit) =>
  `${fmt(k.cpuUs)} (switches ${fmt(k.voluntary, 2)} blocked, ${fmt(k.involuntary, 2)} preempted)`;

/** "start 4.1 s CPU | first 2 s ... | steady ... | end ...": where one run's CPU went. */
function phasesLine(r: EngineRunResult, perVuThreads: boolean): string {
  const p = r.phases;
  if (!p) return 'phases: not measured (run too short, or no /proc)';
  const s = p.steady;
  const threads = perVuThreads
    ? `main ${kind(s.main)}, VU threads ${kind(s.vuThreads)}, other ${kind(s.other)}`
    : `main ${kind(s.main)}, other threads ${kind(s.other)}`;
  return (
    `start ${fmt(p.startCpuUs / 1e6, 2)} s CPU | first ${WARMUP_MS / 1000} s: ${fmt(p.warmup.requests)} req at ` +
    `${fmt(p.warmup.cpuUsPerReq)} µs/req | steady: ${fmt(s.requests / s.seconds)} req/s at ${fmt(s.cpuUsPerReq)} µs/req ` +
    `(${threads}) | end ${fmt(p.endCpuUs / 1e6, 2)} s CPU`
  );
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

/** Prints one line per run and the medians; returns the median runner/k6 req/s ratio. */
export async function versusK6(
  engines: Engines,
  url: string,
  dir: string,
  c: VersusCase,
  pairs: number,
  seconds: number,
): Promise<number> {
  const script = join(dir, c.checks ? 'two-checks.js' : 'bare.js');
  await writeFile(script, SCRIPT(c.checks));
  const title = `${c.vus} VUs${c.checks ? ', two checks per iteration' : ''}, ${seconds} s per run`;
  console.log(`\nreal k6 vs runner: ${title}, ${pairs} alternating pairs`);
  const rpsRatios: number[] = [];
  const cpuRatios: number[] = [];
  const splitRatios: number[] = [];
  const split = engines.split ?? 1;
  const k6Runs: EngineRunResult[] = [];
  const runnerRuns: EngineRunResult[] = [];
  for (let pair = 0; pair < pairs; pair++) {
    const order: ('k6' | 'runner')[] = pair % 2 ? ['runner', 'k6'] : ['k6', 'runner'];
    const got: Partial<Record<'k6' | 'runner', EngineRunResult>> = {};
    for (const engine of order) {
      got[engine] = await run(engines, engine, script, c.vus, seconds, dir, url);
      const r = got[engine];
      console.log(
        `  pair ${pair + 1} ${engine.padEnd(6)} ${fmt(r.rps).padStart(6)} req/s, ${fmt(r.cpuUsPerReq)} µs CPU/req, ` +
          `peak RSS ${fmt(r.peakRssMb)} MB`,
      );
      if (engines.requests) console.log(`         ${phasesLine(r, engine === 'runner')}`);
    }
    if (split > 1) {
      // Phases are per process: not watched here.
      const r = await runSplit(c.vus, split, (vus) =>
        run({ loadlab: engines.loadlab }, 'runner', script, vus, seconds, dir, url),
      );
      splitRatios.push(r.rps / got.k6!.rps);
      console.log(
        `  pair ${pair + 1} runner as ${split} processes ${fmt(r.rps).padStart(6)} req/s, ` +
          `${fmt(r.cpuUsPerReq)} µs CPU/req, peak RSS ${fmt(r.peakRssMb)} MB (sum)`,
      );
    }
    k6Runs.push(got.k6!);
    runnerRuns.push(got.runner!);
    rpsRatios.push(got.runner!.rps / got.k6!.rps);
    cpuRatios.push(got.runner!.cpuUsPerReq / got.k6!.cpuUsPerReq);
  }
  const med = (runs: EngineRunResult[], pick: (r: EngineRunResult) => number) => median(runs.map(pick));
  for (const [name, runs] of [
    ['k6', k6Runs],
    ['runner', runnerRuns],
  ] as const)
    console.log(
      `  median ${name.padEnd(6)} ${fmt(med(runs, (r) => r.rps)).padStart(6)} req/s, ` +
        `${fmt(med(runs, (r) => r.cpuUsPerReq))} µs CPU/req, ${fmt(med(runs, (r) => r.peakRssMb) / c.vus, 1)} MB/VU`,
    );
  if (engines.requests) {
    const steady = (runs: EngineRunResult[], pick: (p: NonNullable<EngineRunResult['phases']>) => number) =>
      fmt(median(runs.flatMap((r) => (r.phases ? [pick(r.phases)] : []))));
    for (const [name, runs] of [
      ['k6', k6Runs],
      ['runner', runnerRuns],
    ] as const)
      console.log(
        `  median ${name.padEnd(6)} steady ${steady(runs, (p) => p.steady.cpuUsPerReq)} µs/req ` +
          `(main ${steady(runs, (p) => p.steady.main.cpuUs)}, VU threads ${steady(runs, (p) => p.steady.vuThreads.cpuUs)}, ` +
          `other ${steady(runs, (p) => p.steady.other.cpuUs)}), first ${WARMUP_MS / 1000} s ${steady(runs, (p) => p.warmup.cpuUsPerReq)} µs/req, ` +
          `start ${steady(runs, (p) => p.startCpuUs / 1000)} ms CPU, end ${steady(runs, (p) => p.endCpuUs / 1000)} ms CPU`,
      );
  }
  const ratio = median(rpsRatios);
  console.log(
    `  runner/k6: req/s ${fmt(ratio, 2)} (pairs ${rpsRatios.map((r) => fmt(r, 2)).join(' ')}), ` +
      `CPU per request ${fmt(median(cpuRatios), 2)}`,
  );
  if (split > 1)
    console.log(
      `  runner as ${split} processes/k6: req/s ${fmt(median(splitRatios), 2)} ` +
        `(pairs ${splitRatios.map((r) => fmt(r, 2)).join(' ')}): the ceiling of ${split} host threads`,
    );
  return ratio;
}

/** Peak RSS per VU of each engine at `vus` looping VUs (one short run each). */
export async function memoryPerVu(
  engines: Engines,
  url: string,
  dir: string,
  vus: number,
  seconds: number,
): Promise<void> {
  const script = join(dir, 'two-checks.js');
  await writeFile(script, SCRIPT(true));
  const k6 = await run(engines, 'k6', script, vus, seconds, dir, url);
  const runner = await run(engines, 'runner', script, vus, seconds, dir, url);
  console.log(
    `\nmemory at ${vus} VUs (peak RSS / VUs): k6 ${fmt(k6.peakRssMb / vus, 1)} MB/VU (${fmt(k6.peakRssMb)} MB), ` +
      `runner ${fmt(runner.peakRssMb / vus, 1)} MB/VU (${fmt(runner.peakRssMb)} MB)`,
  );
}
