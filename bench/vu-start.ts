// `npm run bench:vu-start`: what a VU's start and its iterations cost for the three ways a script is
// loaded (runner/vu/README.md), in one command, interleaved rounds: a plain script (CommonJS
// bundle, the reference), the same script with one top-level await (ES module bundle run as an
// async function) and with a `throw 'x'` (which opens the debugger session that locates thrown
// values). Per round: BENCH_VUS VUs (default 20) started at once (wall time, RSS per VU after init),
// then BENCH_ITERATIONS iterations (default 2000) of a JavaScript-only default function on one of
// them. BENCH_ROUNDS (default 3) rounds; the medians and their ratios to the plain script print.
// BENCH_BASELINE=<dir> adds the plain script on another checkout's runner (e.g. the commit before).
// The floor is a line of its own: as many bare Node workers (a one-line script that waits for a
// message), started and closed the same way, so what a VU costs above a Node thread shows.
// Per line: start (wall), CPU of the process per VU while they start, RSS per VU, close (wall).
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type * as VuApi from '../runner/host/hosted-vu.js';
import { ctx } from '../runner/vu/test-support.js';
import { median } from './lib/engine-run.js';

const VUS = Number(process.env.BENCH_VUS ?? 20);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 2000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
if (
  !(VUS >= 1 && VUS <= 200) ||
  !(ITERATIONS >= 1 && ITERATIONS <= 100_000) ||
  !(ROUNDS >= 1 && ROUNDS <= 15)
) {
  console.error('BENCH_VUS must be in [1, 200], BENCH_ITERATIONS in [1, 100000] and BENCH_ROUNDS in [1, 15]');
  process.exit(2);
}

const BODY = `
function work(n) {
  const out = [];
  for (let i = 0; i < n; i++) out.push(JSON.stringify({ i, s: 'x'.repeat(i % 7) }));
  return out.join().length;
}
export default function () {
  if (work(50) < 0) throw new Error('never');
}
`;
const VARIANTS = {
  plain: `import http from 'k6/http';\nconst ready = http !== undefined;\n${BODY}`,
  'top-level await': `import http from 'k6/http';\nconst ready = await Promise.resolve(http !== undefined);\n${BODY}`,
  "throw 'x' (debugger)": `import http from 'k6/http';\nconst ready = http !== undefined;\nif (!ready) throw 'not ready';\n${BODY}`,
};

interface Figures {
  startMs: number;
  cpuMsPerVu: number;
  mbPerVu: number;
  iterationUs: number;
  closeMs: number;
}

async function measure(api: typeof VuApi, script: string): Promise<Figures> {
  const bundle = await api.loadScript(script);
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const vus = Array.from({ length: VUS }, (_, i) =>
    api.createVu(
      { scriptPath: script, bundle, vuId: i + 1, env: {}, runTags: {} },
      { onSamples: () => {}, onLog: () => {} },
    ),
  );
  await Promise.all(vus.map((vu) => vu.init()));
  const startMs = performance.now() - started;
  const cpuMsPerVu = cpuMs(process.cpuUsage(cpuBefore)) / VUS;
  const mbPerVu = (process.memoryUsage().rss - rssBefore) / VUS / 1024 / 1024;
  const t0 = performance.now();
  for (let i = 0; i < ITERATIONS; i++) await vus[0]!.iterate('default', undefined, ctx({}, i));
  const iterationUs = ((performance.now() - t0) * 1000) / ITERATIONS;
  const closing = performance.now();
  await Promise.all(vus.map((vu) => vu.close()));
  return { startMs, cpuMsPerVu, mbPerVu, iterationUs, closeMs: performance.now() - closing };
}

const cpuMs = (usage: NodeJS.CpuUsage): number => (usage.user + usage.system) / 1000;

/** The floor: VUS bare Node workers, each running one line that waits for a message. */
async function measureFloor(): Promise<Figures> {
  const rssBefore = process.memoryUsage().rss;
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const workers = await Promise.all(
    Array.from({ length: VUS }, async () => {
      const worker = new Worker(
        "const { parentPort } = require('node:worker_threads'); parentPort.postMessage('up'); parentPort.once('message', () => {});",
        { eval: true },
      );
      await new Promise((up) => worker.once('message', up));
      return worker;
    }),
  );
  const startMs = performance.now() - started;
  const cpuMsPerVu = cpuMs(process.cpuUsage(cpuBefore)) / VUS;
  const mbPerVu = (process.memoryUsage().rss - rssBefore) / VUS / 1024 / 1024;
  const closing = performance.now();
  await Promise.all(workers.map((w) => w.terminate()));
  return { startMs, cpuMsPerVu, mbPerVu, iterationUs: NaN, closeMs: performance.now() - closing };
}

/** Stands for the floor's line in the list of runners. */
const FLOOR = {} as typeof VuApi;

const dir = await mkdtemp(join(tmpdir(), 'loadlab-vu-start-'));
try {
  const apis: [string, typeof VuApi, string][] = [];
  const current = (await import('../runner/host/hosted-vu.js')) as typeof VuApi;
  for (const [name, code] of Object.entries(VARIANTS)) {
    const script = join(dir, `${name.replace(/\W+/g, '-')}.js`);
    await writeFile(script, code);
    apis.push([name, current, script]);
  }
  if (process.env.BENCH_BASELINE) {
    // A baseline from before the runner's by-thread layout keeps the VU handle at runner/vu/index.ts.
    const moved = resolve(process.env.BENCH_BASELINE, 'runner/host/hosted-vu.ts');
    const entry = existsSync(moved) ? moved : resolve(process.env.BENCH_BASELINE, 'runner/vu/index.ts');
    const url = pathToFileURL(entry).href;
    apis.push(['plain, BENCH_BASELINE runner', (await import(url)) as typeof VuApi, apis[0]![2]]);
  }
  apis.push(['floor: bare Node workers', FLOOR, '']);
  const results = new Map<string, Figures[]>();
  for (let round = 0; round < ROUNDS; round++) {
    // Each round starts with another variant: the first measurements of a process are slower.
    for (const [name, api, script] of [
      ...apis.slice(round % apis.length),
      ...apis.slice(0, round % apis.length),
    ]) {
      const figures = api === FLOOR ? await measureFloor() : await measure(api, script);
      results.set(name, [...(results.get(name) ?? []), figures]);
    }
  }
  const ref = results.get('plain')!;
  const refStart = median(ref.map((f) => f.startMs));
  const refCpu = median(ref.map((f) => f.cpuMsPerVu));
  const refMb = median(ref.map((f) => f.mbPerVu));
  const refIter = median(ref.map((f) => f.iterationUs));
  const refClose = median(ref.map((f) => f.closeMs));
  console.log(
    `${VUS} VUs started at once, ${ITERATIONS} iterations on one, median of ${ROUNDS} interleaved rounds`,
  );
  for (const [name, figures] of results) {
    const start = median(figures.map((f) => f.startMs));
    const mb = median(figures.map((f) => f.mbPerVu));
    const iter = median(figures.map((f) => f.iterationUs));
    const cpu = median(figures.map((f) => f.cpuMsPerVu));
    const close = median(figures.map((f) => f.closeMs));
    console.log(
      `${name.padEnd(30)} start ${start.toFixed(0).padStart(5)} ms (${(start / refStart).toFixed(2)}x)  ` +
        `CPU ${cpu.toFixed(1)} ms/VU (${(cpu / refCpu).toFixed(2)}x)  ` +
        `RSS ${mb.toFixed(1)} MB/VU (${(mb / refMb).toFixed(2)}x)  ` +
        `close ${close.toFixed(0)} ms (${(close / refClose).toFixed(2)}x)  ` +
        (Number.isNaN(iter) ? '' : `iteration ${iter.toFixed(0)} µs (${(iter / refIter).toFixed(2)}x)`),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
process.exit(0);
