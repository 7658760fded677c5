// `npm run bench:wall`: a whole `run` command's wall time on real k6 and on the runner, split into
// phases, as a user sees it. Same scripts, same local target (bench/lib/plain-target.ts), the
// engines alternating (the first of each round alternates too). The scripts log a marker with
// Date.now() at the end of each init, at setup's start and end and at teardown's start; the bench
// notes when it spawned the process and when it exited. Phases, which add up to the wall time:
//   start     spawn -> the first init done (the process, the script loaded, the options read)
//   VU init   -> the last init done (every VU the scenarios need)
//   setup     -> setup's end
//   scenarios -> teardown's start (the planned duration plus what the engine adds around it)
//   end       -> exit (teardown, summary, outputs flushed, workers closed)
// Needs a real k6 (REAL_K6, ../shared/tools/k6 or k6 on PATH). BENCH_ROUNDS (default 3),
// BENCH_SHAPES (comma-separated names, default all), BENCH_LOADLAB (the runner's bin/loadlab.js). Bounded: every run is killed after its planned
// time plus 90 s. Prints the load average before and after: these figures mean little on a busy host.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../devkit/loadlab-run.js';
import { realK6 } from '../devkit/real-k6.js';
import { benchInt } from './lib/bench-env.js';
import { benchLoadlab, median } from './lib/engine-run.js';
import { startTarget } from './lib/plain-target.js';
import { PHASES, phasesOf, type Phases } from './lib/wall-phases.js';
import { WALL_SHAPES } from './lib/wall-shapes.js';

const ROUNDS = benchInt('BENCH_ROUNDS', 3, 15);
const only = process.env.BENCH_SHAPES?.split(',').filter(Boolean);
const unknown = only?.filter((n) => !WALL_SHAPES.some((s) => s.name === n)) ?? [];
if (unknown.length) {
  console.error(
    `unknown BENCH_SHAPES ${unknown.join(', ')}: one of ${WALL_SHAPES.map((s) => s.name).join(', ')}`,
  );
  process.exit(2);
}
const k6 = realK6();
if (!k6) {
  console.error('bench:wall needs a real k6 (REAL_K6, ../shared/tools/k6 or k6 >= 1.0 on PATH)');
  process.exit(2);
}
const loadlab = benchLoadlab();

type Engine = 'k6' | 'runner';

/**
 * One run: wall time in ms and the phases, from the markers on stderr. The end is when the run's
 * output closed (devkit's runCommand waits for it), a moment after the exit.
 */
async function runOnce(
  engine: Engine,
  script: string,
  dir: string,
  url: string,
  planned: number,
): Promise<Phases> {
  const spawned = Date.now();
  const run = await runLoadlab(['-q', script], {
    engine: engine === 'k6' ? 'k6' : 'node',
    loadlab,
    cwd: dir,
    env: { ...process.env, URL: url, K6_NO_USAGE_REPORT: 'true' },
    timeoutMs: planned + 90_000,
  });
  const exited = Date.now();
  if (run.code !== 0)
    throw new Error(`${engine} exited ${run.code ?? run.signal}: ${run.stderr.slice(-1500)}`);
  return phasesOf(run.stderr, spawned, exited);
}

const fmt = (ms: number) => (ms / 1000).toFixed(2).padStart(6);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-wall-'));
const { url, child } = await startTarget(dir);
try {
  console.log(
    `bench:wall, ${ROUNDS} alternating rounds per shape, medians; runner ${loadlab}; load average ${load()}`,
  );
  console.log(`phases: ${PHASES.join(', ')} (seconds; ratio runner/k6 in brackets)`);
  for (const shape of WALL_SHAPES.filter((s) => !only || only.includes(s.name))) {
    const script = join(dir, `${shape.name}.js`);
    await writeFile(script, shape.script);
    const runs: Record<Engine, Phases[]> = { k6: [], runner: [] };
    for (let round = 0; round < ROUNDS; round++) {
      const order: Engine[] = round % 2 ? ['runner', 'k6'] : ['k6', 'runner'];
      for (const engine of order) runs[engine].push(await runOnce(engine, script, dir, url, shape.plannedMs));
    }
    console.log(`\n${shape.name}: ${shape.title} (planned ${shape.plannedMs / 1000} s), load ${load()}`);
    const med = (engine: Engine, key: keyof Phases) => median(runs[engine].map((p) => p[key]));
    for (const engine of ['k6', 'runner'] as const) {
      const cells = (['wall', ...PHASES] as const).map((key) => {
        const ms = med(engine, key);
        const ratio = engine === 'runner' ? ` (${(ms / Math.max(1, med('k6', key))).toFixed(1)}x)` : '';
        return `${key} ${fmt(ms)}${ratio.padEnd(8)}`;
      });
      const walls = runs[engine].map((p) => (p.wall / 1000).toFixed(2)).join(' ');
      console.log(`  ${engine.padEnd(6)} ${cells.join(' ')} [walls ${walls}]`);
    }
  }
  console.log(`\nload average at the end ${load()}`);
} finally {
  child.send('stop');
  await rm(dir, { recursive: true, force: true });
}
