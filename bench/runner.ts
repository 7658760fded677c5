// Throughput of the Node runner against a bare node:http target running in its own process.
// With a real k6 (REAL_K6, ../shared/tools/k6 or k6 on PATH): both engines from their command lines
// on the same script, alternating runs, BENCH_PAIRS (default 3) pairs per case, medians of the
// runner/k6 ratios: 50 VUs with two checks per iteration, 10 VUs, and memory per VU at 125 VUs
// (bench/lib/versus-k6.ts), each run's CPU also split by phase (start, first 2 s, steady state by
// thread, end: bench/lib/run-phases.ts). BENCH_BRIDGE=1 adds the comparison below.
// Without one, the runner's VUs (runner/vu: one worker per VU, Atomics bridge, undici) next
// to two references in the same command: the bare bridge (bench/lib/bare-bridge.ts, the design's
// stand-in for real k6: its prototype ran at 1.1x k6) and a plain load generator (autocannon).
// The runner is measured three times: VUs looping by themselves (what constant-vus, ramping-vus and
// the iteration executors do) from a cold start, as a k6 run of that length would be, then the
// same VUs again once V8 has optimised their code, and one command per iteration (what the
// arrival-rate executors do). Prints req/s, CPU per request, the ratios, and memory per VU.
// Bounded: BENCH_SECONDS (default 10, the length real k6 was measured over) per measurement,
// BENCH_VUS (default 50) VUs / connections. BENCH_SPLIT=N also runs the runner as N processes at once,
// each with its share of the VUs: the ceiling of a host that spreads VUs over N threads (lib/split-runs.ts).
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createVu, loadScript, type Vu } from '../runner/host/hosted-vu.js';
import { ctx, loopSpec } from '../runner/vu/test-support.js';
import { realK6 } from '../devkit/real-k6.js';
import { runBareBridge } from './lib/bare-bridge.js';
import { benchLoadlab } from './lib/engine-run.js';
import { startTarget } from './lib/plain-target.js';
import { memoryPerVu, versusK6 } from './lib/versus-k6.js';
import { benchSplit } from './lib/split-runs.js';
import { newThreads, perRequest, splitCpu, threadCpuUs, type CpuSplit } from './lib/thread-cpu.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VUS = Number(process.env.BENCH_VUS ?? 50);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
const SPLIT = benchSplit();
if (SPLIT instanceof Error || SPLIT > 10) {
  // The 10-VU case is split too.
  console.error(SPLIT instanceof Error ? SPLIT.message : 'BENCH_SPLIT must not exceed 10, the smaller case');
  process.exit(2);
}
if (
  !(SECONDS > 0 && SECONDS <= 60) ||
  !(VUS > 0 && VUS <= 500) ||
  !(Number.isInteger(PAIRS) && PAIRS >= 1 && PAIRS <= 15)
) {
  console.error('BENCH_SECONDS must be in (0, 60], BENCH_VUS in [1, 500] and BENCH_PAIRS in [1, 15]');
  process.exit(2);
}

async function runAutocannon(url: string): Promise<number> {
  const result = await autocannon({ url, connections: VUS, duration: SECONDS, pipelining: 1 });
  return result.requests.total / SECONDS;
}

interface Measured {
  rps: number;
  cpuUsPerReq: number;
  /** µs per request by thread kind (Linux; zeros elsewhere). */
  split: CpuSplit;
  /** req/s in each whole second: shows the VUs' code getting optimised. */
  perSecond: number[];
}

interface VuRun {
  mbPerVu: number;
  samples: number;
  /** One per phase: looping VUs run `phases` back-to-back measurements on the same VUs. */
  phases: Measured[];
}

async function runVus(url: string, dir: string, mode: 'loop' | 'command', phases = 1): Promise<VuRun> {
  const script = join(dir, 'bench.js');
  await writeFile(
    script,
    `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }\n`,
  );
  const bundle = await loadScript(script);
  let requests = 0;
  let samples = 0;
  const rssBefore = process.memoryUsage().rss;
  const threadsBefore = threadCpuUs();
  const vus: Vu[] = [];
  for (let id = 1; id <= VUS; id++) {
    vus.push(
      createVu(
        { scriptPath: script, bundle, vuId: id, env: { URL: url }, runTags: {} },
        {
          onSamples: (batch) => {
            samples += batch.length;
            for (const s of batch) if (s.metric === 'http_reqs') requests++;
          },
          onLog: () => {},
        },
      ),
    );
  }
  await Promise.all(vus.map((vu) => vu.init()));
  const mbPerVu = (process.memoryUsage().rss - rssBefore) / VUS / 1024 / 1024;
  const workerTids = newThreads(threadsBefore);
  const results: Measured[] = [];
  for (let phase = 0; phase < phases; phase++) {
    const before = requests;
    const perSecond: number[] = [];
    let lastCount = requests;
    const ticker = setInterval(() => {
      perSecond.push(requests - lastCount);
      lastCount = requests;
    }, 1000);
    const cpuBefore = process.cpuUsage();
    const threadsAtStart = threadCpuUs();
    const started = performance.now();
    const deadline = started + SECONDS * 1000;
    if (mode === 'loop') {
      const spec = loopSpec({ endAt: Date.now() + SECONDS * 1000, progress: { durationMs: SECONDS * 1000 } });
      await Promise.all(vus.map((vu) => vu.loop(spec, () => {})));
    } else {
      // As an arrival-rate executor does: the same scenario, env, tags and options objects every
      // iteration, new numbers.
      const base = ctx({ executor: 'constant-arrival-rate' });
      await Promise.all(
        vus.map(async (vu) => {
          for (let i = 0; performance.now() < deadline; i++) {
            const scenario = { ...base.scenario, iterationInTest: i };
            await vu.iterate('default', undefined, { ...base, scenario, iterationInScenario: i });
          }
        }),
      );
    }
    clearInterval(ticker);
    const elapsed = (performance.now() - started) / 1000;
    const done = requests - before;
    // CPU of every thread of this process per request: steadier than req/s on a shared machine.
    const cpu = process.cpuUsage(cpuBefore);
    const split = splitCpu(threadsAtStart, threadCpuUs(), workerTids);
    results.push({
      rps: done / elapsed,
      cpuUsPerReq: (cpu.user + cpu.system) / Math.max(1, done),
      split: perRequest(split, done),
      perSecond,
    });
  }
  await Promise.all(vus.map((vu) => vu.close()));
  return { mbPerVu, samples, phases: results };
}

/** "120 µs CPU/req (main 50, VUs 55, V8 background 15)": where a request's CPU went. */
function cpuLine(total: number, split: CpuSplit): string {
  const f = (us: number) => us.toFixed(0);
  return `${f(total)} µs CPU/req (main ${f(split.main)}, VU threads ${f(split.workers)}, V8 background ${f(split.background)})`;
}

function describe(m: Measured): string {
  return `${m.rps.toFixed(0)} req/s, ${cpuLine(m.cpuUsPerReq, m.split)}`;
}

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-runner-'));
const { url, child, requests } = await startTarget(dir);

async function bridgeComparison(): Promise<void> {
  console.log(
    `target: bare node:http in its own process at ${url}; ${VUS} VUs/connections, ${SECONDS} s each`,
  );
  // BENCH_REFERENCE=0 skips autocannon (for profiling the runner alone).
  const withRef = process.env.BENCH_REFERENCE !== '0';
  const cannon = withRef ? await runAutocannon(url) : NaN;
  if (withRef) console.log(`autocannon (plain load generator): ${cannon.toFixed(0)} req/s`);
  // The bridge runs before and after the runner, so a machine that gets busier during the command
  // shows up as a spread instead of being charged to the runner.
  const bridgeRuns = [await runBareBridge(url, VUS, SECONDS)];
  const bridgeLine = (b: (typeof bridgeRuns)[number]) =>
    `${(b.requests / b.seconds).toFixed(0)} req/s, ${cpuLine(b.cpuUsPerReq, b.split)}`;
  console.log(`bare bridge (k6 stand-in), before: ${bridgeLine(bridgeRuns[0]!)}`);
  const looping = await runVus(url, dir, 'loop', 2);
  const [cold, warm] = looping.phases as [Measured, Measured];
  console.log(`runner VUs, looping, cold start:  ${describe(cold)}`);
  console.log(`  req/s each second: ${cold.perSecond.join(' ')}`);
  console.log(`runner VUs, looping, warm:        ${describe(warm)}`);
  // BENCH_COMMAND=0 skips the command-per-iteration measurement.
  const perCommand =
    process.env.BENCH_COMMAND === '0' ? undefined : (await runVus(url, dir, 'command')).phases[0];
  if (perCommand)
    console.log(`runner VUs, command/iteration:    ${describe(perCommand)} (arrival-rate path)`);
  bridgeRuns.push(await runBareBridge(url, VUS, SECONDS));
  console.log(`bare bridge (k6 stand-in), after:  ${bridgeLine(bridgeRuns[1]!)}`);
  const bridge = bridgeRuns.reduce((sum, b) => sum + b.requests / b.seconds, 0) / bridgeRuns.length;
  const ratios = (of: number) =>
    `${(of / bridge).toFixed(2)} of the bare bridge` +
    (withRef ? `, ${(of / cannon).toFixed(2)} of autocannon` : '');
  console.log(`ratio, looping cold start: ${ratios(cold.rps)}`);
  console.log(`ratio, looping warm:       ${ratios(warm.rps)}`);
  if (perCommand) console.log(`ratio, command/iteration:  ${ratios(perCommand.rps)}`);
  console.log(
    `goal (>= real k6 = bare bridge / 1.1): ${cold.rps >= bridge / 1.1 ? 'met' : 'not met'} from a cold start, ` +
      `${warm.rps >= bridge / 1.1 ? 'met' : 'not met'} warm`,
  );
  console.log(`memory per VU after init: ${looping.mbPerVu.toFixed(1)} MB RSS (${looping.samples} samples)`);
}

try {
  const k6 = realK6();
  if (k6) {
    console.log(`target: bare node:http in its own process at ${url}; real k6: ${k6}`);
    const loadlab = benchLoadlab();
    console.log(
      `runner: ${loadlab}; load average ${loadavg()
        .map((n) => n.toFixed(2))
        .join(' ')}`,
    );
    const engines = { loadlab, requests, split: SPLIT };
    const at50 = await versusK6(engines, url, dir, { vus: VUS, checks: true }, PAIRS, SECONDS);
    const at10 = await versusK6(engines, url, dir, { vus: 10, checks: true }, PAIRS, SECONDS);
    await memoryPerVu(engines, url, dir, 125, Math.min(SECONDS, 5));
    // The goal, on an idle machine: >= 0.8x k6's req/s at 10 and at 50 VUs.
    console.log(
      `\ngoal runner/k6 >= 0.8 at ${VUS} VUs: ${at50 >= 0.8 ? 'met' : 'not met'} (${at50.toFixed(2)}); ` +
        `>= 0.8 at 10 VUs: ${at10 >= 0.8 ? 'met' : 'not met'} (${at10.toFixed(2)}); ` +
        `load average now ${loadavg()
          .map((n) => n.toFixed(2))
          .join(' ')}`,
    );
  } else
    console.log('no real k6 (REAL_K6, ../shared/tools/k6 or k6 on PATH): comparing with the bare bridge');
  if (!k6 || process.env.BENCH_BRIDGE === '1') await bridgeComparison();
} finally {
  child.send('stop');
  await rm(dir, { recursive: true, force: true });
}
