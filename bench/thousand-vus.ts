// `npm run bench:thousand-vus`: the test a performance engineer runs first, a thousand VUs each
// doing `http.get` + `check` + `sleep(1)` for 20 s against a local target, on real k6 and on the
// runner, alternating (the first of each round alternates too). For each run: the command's wall
// time, its peak RSS and the iterations it made; then the medians and the runner/k6 ratios.
// BENCH_ROUNDS (default 3), BENCH_VUS (default 1000), BENCH_SECONDS (default 20), BENCH_ASYNC=1 (the
// iteration an async function awaiting http.asyncRequest), BENCH_LOADLAB
// (another checkout's bin/loadlab.js), BENCH_SPLIT (N: also the runner as N processes at once, each
// with its share of the VUs, the ceiling of a host that spreads VUs over N threads; lib/split-runs.ts).
// Needs a real k6. Bounded: each run is killed after its
// planned time plus 120 s. The load average is printed beside the figures: they mean little on a busy host.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { realK6 } from '../devkit/real-k6.js';
import { benchInt } from './lib/bench-env.js';
import { benchLoadlab, median, runEngine, type EngineRunResult } from './lib/engine-run.js';
import { startTarget } from './lib/plain-target.js';
import { benchSplit, runSplit } from './lib/split-runs.js';

const ROUNDS = benchInt('BENCH_ROUNDS', 3, 15);
const VUS = benchInt('BENCH_VUS', 1000, 5000);
const SECONDS = benchInt('BENCH_SECONDS', 20, 600);
const SPLIT = benchSplit();
if (SPLIT instanceof Error || SPLIT > VUS) {
  console.error(SPLIT instanceof Error ? SPLIT.message : `BENCH_SPLIT must not exceed BENCH_VUS (${VUS})`);
  process.exit(2);
}
const k6 = realK6();
if (!k6) {
  console.error('bench:thousand-vus needs a real k6 (REAL_K6, ../shared/tools/k6 or k6 >= 1.0 on PATH)');
  process.exit(2);
}
const loadlab = benchLoadlab();

/** BENCH_ASYNC=1: the same test as an async function awaiting http.asyncRequest, as k6's docs write it. */
const ASYNC = process.env.BENCH_ASYNC === '1';
const ITERATION = ASYNC
  ? `export default async function () {
  check(await http.asyncRequest('GET', __ENV.URL), { 'status is 200': (r) => r.status === 200 });
  sleep(1);
}`
  : `export default function () {
  check(http.get(__ENV.URL), { 'status is 200': (r) => r.status === 200 });
  sleep(1);
}`;
const SCRIPT = `import http from 'k6/http';
import { check, sleep } from 'k6';
export const options = { vus: ${VUS}, duration: '${SECONDS}s' };
${ITERATION}
`;

/** `split`: the runner as SPLIT processes at once (BENCH_SPLIT). */
type Engine = 'k6' | 'runner' | 'split';
interface Run extends EngineRunResult {
  wallS: number;
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-thousand-'));
const target = await startTarget(dir);
try {
  const script = join(dir, 'thousand.js');
  await writeFile(script, SCRIPT);
  console.log(
    `${VUS} VUs, ${ASYNC ? 'await http.asyncRequest' : 'http.get'} + check + sleep(1), ${SECONDS} s; target ${target.url}; runner ${loadlab}`,
  );
  console.log(`real k6: ${k6}; load average before: ${load()}`);
  const runs: Record<Engine, Run[]> = { k6: [], runner: [], split: [] };
  const runOne = (engine: 'k6' | 'runner', vus: number) =>
    runEngine({
      engine,
      args: ['-q', '--vus', String(vus), script],
      loadlab,
      dir,
      env: { URL: target.url, K6_NO_USAGE_REPORT: 'true' },
      timeoutMs: (SECONDS + 120) * 1000,
      counter: 'iterations',
    });
  const engines: Engine[] = SPLIT > 1 ? ['k6', 'runner', 'split'] : ['k6', 'runner'];
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 === 0 ? engines : [...engines].reverse();
    for (const engine of order) {
      const started = performance.now();
      const run: Run =
        engine === 'split'
          ? await runSplit(VUS, SPLIT, (vus) => runOne('runner', vus))
          : { ...(await runOne(engine, VUS)), wallS: (performance.now() - started) / 1000 };
      runs[engine].push(run);
      console.log(
        `round ${round + 1} ${(engine === 'split' ? `runner x${SPLIT}` : engine).padEnd(9)} wall ${run.wallS.toFixed(2)} s, peak RSS ${run.peakRssMb.toFixed(0)} MB, ` +
          `${run.requests} iterations (load ${load()})`,
      );
    }
  }
  const med = (engine: Engine, pick: (r: Run) => number) => median(runs[engine].map(pick));
  const line = (label: string, pick: (r: Run) => number, unit: string, digits: number) => {
    const [a, b] = [med('k6', pick), med('runner', pick)];
    const split =
      SPLIT > 1
        ? `; runner as ${SPLIT} processes ${med('split', pick).toFixed(digits)} ${unit}: ${(med('split', pick) / a).toFixed(2)}`
        : '';
    console.log(
      `${label.padEnd(12)} k6 ${a.toFixed(digits)} ${unit}, runner ${b.toFixed(digits)} ${unit}: runner/k6 ${(b / a).toFixed(2)}${split}`,
    );
  };
  console.log(`medians of ${ROUNDS} (load average after: ${load()}):`);
  line('wall', (r) => r.wallS, 's', 2);
  line('peak RSS', (r) => r.peakRssMb, 'MB', 0);
  line('iterations', (r) => r.requests, '', 0);
  const wallGoal = 1.15 * med('k6', (r) => r.wallS) + 1;
  console.log(
    `issue goals: peak RSS <= 1536 MB, wall <= ${wallGoal.toFixed(2)} s (1.15x k6 + 1 s), iterations >= ${(0.9 * med('k6', (r) => r.requests)).toFixed(0)} (0.9x k6)`,
  );
} finally {
  target.child.send('stop');
  await rm(dir, { recursive: true, force: true });
}
