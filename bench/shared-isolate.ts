// `npm run bench:shared-isolate`: can several VUs share one V8 isolate, and what would it save? A probe
// of a host the runner does not have (shared-isolate/shared_isolate_probe.cc, built here with npm's
// node-gyp): each VU is a thread with its own context, and a VU blocked in a host call leaves the
// isolate to the others (v8::Unlocker). Against the runner's host today, isolated-vm with an isolate
// per VU, on the same work in the same command: the real VU bundle evaluated in every VU's context,
// then a loop of host calls, each followed by a little JavaScript.
// - sleep: 1,000 VUs whose host call sleeps 1 s (bench:thousand-vus's think time), 12 s: memory, start.
// - busy: 100 VUs, 10 per isolate, of which one per isolate loops without a host call: do the others
//   still run, with and without time slicing (a VU that holds the isolate lets another in)?
// - call: 10 and 50 VUs whose host call is answered by the main thread at once, 3 s: a crossing's cost,
//   against the runner's (applySyncPromise: the main thread's answer is a promise) and isolated-vm's
//   cheapest (applySync, answered synchronously as the probe's is).
// Each run is a process of its own (peak RSS, CPU of the whole process), BENCH_ROUNDS times (default 3)
// in rotating order; medians are printed with the load average. BENCH_VUS (default 1000) and
// BENCH_SECONDS (default 12) size the sleep runs.
import { copyFile, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../devkit/command.js';
import { isolateCode } from '../runner/vu/isolate-code.js';
import { benchInt } from './lib/bench-env.js';
import { median } from './lib/engine-run.js';
import type { ProbeResult, ProbeRun } from './shared-isolate/child.js';

const ROUNDS = benchInt('BENCH_ROUNDS', 3, 15);
const VUS = benchInt('BENCH_VUS', 1000, 5000);
const SECONDS = benchInt('BENCH_SECONDS', 12, 120);
const CALL_SECONDS = 3;
const BUSY_SECONDS = 3;
const nodeGyp = process.env.npm_config_node_gyp;
if (!nodeGyp) {
  console.error(
    "bench:shared-isolate builds its probe with npm's node-gyp: run it as `npm run bench:shared-isolate`",
  );
  process.exit(2);
}

const probeDir = fileURLToPath(new URL('./shared-isolate/', import.meta.url));
const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

/** Builds the probe addon in `dir` (a copy of its sources) and returns the addon's file. */
async function buildProbe(dir: string): Promise<string> {
  for (const file of ['binding.gyp', 'shared_isolate_probe.cc'])
    await copyFile(join(probeDir, file), join(dir, file));
  const built = await runCommand(process.execPath, [nodeGyp!, 'rebuild'], {
    cwd: dir,
    env: process.env,
    timeoutMs: 300_000,
  });
  if (built.code !== 0) throw new Error(`node-gyp could not build the probe:\n${built.output.slice(-2000)}`);
  return join(dir, 'build', 'Release', 'shared_isolate_probe.node');
}

async function measure(run: ProbeRun): Promise<ProbeResult> {
  const child = await runCommand(
    process.execPath,
    ['--no-node-snapshot', '--import', 'tsx', join(probeDir, 'child.ts'), JSON.stringify(run)],
    { env: process.env, cwd: process.cwd(), timeoutMs: (run.seconds + 120) * 1000 },
  );
  const line = child.stdout.trim().split('\n').pop() ?? '';
  if (child.code !== 0 || !line.startsWith('{'))
    throw new Error(
      `the ${run.engine} probe failed (exit ${child.code ?? child.signal}):\n${child.output.slice(-2000)}`,
    );
  return JSON.parse(line) as ProbeResult;
}

interface Case {
  title: string;
  runs: ProbeRun[];
  /** One run's figures, given the first run's (the reference) of the same round's medians. */
  show(run: ProbeRun, result: ProbeResult, reference: ProbeResult): string;
}

/** Runs every case's runs ROUNDS times, rotating who goes first, and prints each run's medians. */
async function compare({ title, runs, show }: Case): Promise<void> {
  console.log(`\n${title} (medians of ${ROUNDS}; load average before: ${load()})`);
  const results: ProbeResult[][] = runs.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let k = 0; k < runs.length; k++) {
      const index = (k + round) % runs.length;
      results[index]!.push(await measure(runs[index]!));
    }
  }
  const medians = results.map((rs): ProbeResult => ({
    iterations: median(rs.map((r) => r.iterations)),
    startMs: median(rs.map((r) => r.startMs)),
    slices: median(rs.map((r) => r.slices)),
    cpuS: median(rs.map((r) => r.cpuS)),
    peakMb: median(rs.map((r) => r.peakMb)),
  }));
  runs.forEach((run, i) => console.log(`  ${label(run).padEnd(32)} ${show(run, medians[i]!, medians[0]!)}`));
  console.log(`  (load average after: ${load()})`);
}

const label = (run: ProbeRun) =>
  run.busy
    ? 'shared, 10 VUs per isolate'
    : run.engine === 'shared'
      ? `shared, ${run.perIsolate} VUs per isolate`
      : `isolated-vm${run.mode === 'call' ? ` ${run.crossing}` : ', an isolate per VU'}`;
const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}x`;

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-shared-isolate-'));
try {
  const addonFile = await buildProbe(dir);
  const bundleFile = join(dir, 'bundle.js');
  await writeFile(bundleFile, await isolateCode());
  const base = { bundleFile, addonFile };

  const sleepRun = (engine: ProbeRun['engine'], perIsolate: number): ProbeRun => ({
    ...base,
    engine,
    mode: 'sleep',
    vus: VUS,
    perIsolate,
    seconds: SECONDS,
  });
  await compare({
    title: `sleep: ${VUS} VUs, the host call sleeps 1 s, ${SECONDS} s`,
    runs: [sleepRun('isolated-vm', 1), sleepRun('shared', 1), sleepRun('shared', 10), sleepRun('shared', 50)],
    show: (_run, r, ref) =>
      `peak RSS ${r.peakMb.toFixed(0)} MB (${(r.peakMb / VUS).toFixed(2)} MB/VU, ${ratio(r.peakMb, ref.peakMb)}), ` +
      `all started in ${r.startMs.toFixed(0)} ms (${ratio(r.startMs, ref.startMs)}), CPU ${r.cpuS.toFixed(2)} s, ` +
      `${r.iterations} iterations`,
  });
  const busyRun = (slicing: boolean): ProbeRun => ({
    ...base,
    engine: 'shared',
    mode: 'sleep',
    sleepMs: 100,
    vus: 100,
    perIsolate: 10,
    seconds: BUSY_SECONDS,
    busy: true,
    slicing,
  });
  // The VUs that do call the host: 9 per isolate, a call per 100 ms.
  const callers = 90 * Math.floor((BUSY_SECONDS * 1000) / 100 - 1);
  await compare({
    title:
      `busy: 100 VUs, 10 per isolate; the first of each isolate loops for ${BUSY_SECONDS} s without a host call, ` +
      `the others sleep 100 ms per call (at most ${callers} iterations in all)`,
    runs: [busyRun(false), busyRun(true)],
    show: (run, r) =>
      `${run.slicing ? 'with' : 'without'} time slicing: the others made ${r.iterations} iterations ` +
      `(${(r.iterations / callers).toFixed(2)} of the most), ${r.slices} slices, CPU ${r.cpuS.toFixed(2)} s`,
  });
  for (const vus of [10, 50]) {
    const callRun = (
      engine: ProbeRun['engine'],
      perIsolate: number,
      crossing?: ProbeRun['crossing'],
    ): ProbeRun => ({
      ...base,
      engine,
      crossing,
      mode: 'call',
      vus,
      perIsolate,
      seconds: CALL_SECONDS,
    });
    const cpuPerCall = (r: ProbeResult) => (r.cpuS * 1e6) / r.iterations;
    await compare({
      title: `call: ${vus} VUs, the host call answered by the main thread at once, ${CALL_SECONDS} s`,
      runs: [
        callRun('isolated-vm', 1, 'applySyncPromise'),
        callRun('isolated-vm', 1, 'applySync'),
        callRun('shared', 1),
        callRun('shared', 10),
      ],
      show: (_run, r, ref) =>
        `${Math.round(r.iterations / CALL_SECONDS)} calls/s (${ratio(r.iterations, ref.iterations)}), ` +
        `${cpuPerCall(r).toFixed(1)} µs CPU per call (${ratio(cpuPerCall(r), cpuPerCall(ref))})`,
    });
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
