// Throughput of the Node runner's VUs (runner/vu: one worker per VU, Atomics bridge, undici) next
// to a reference load generator (autocannon) in the same command, against the same bare node:http
// target running in its own process. Prints req/s of both, their ratio, and memory per VU.
// The runner is measured twice: VUs looping by themselves (what constant-vus, ramping-vus and the
// iteration executors do) and one command per iteration (what the arrival-rate executors do).
// Bounded: BENCH_SECONDS (default 5) per generator, BENCH_VUS (default 50) VUs / connections.
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createVu, loadScript, type Vu } from '../runner/vu/index.js';
import { ctx, loopSpec } from '../runner/vu/test-support.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const VUS = Number(process.env.BENCH_VUS ?? 50);
if (!(SECONDS > 0 && SECONDS <= 60) || !(VUS > 0 && VUS <= 500)) {
  console.error('BENCH_SECONDS must be in (0, 60] and BENCH_VUS in [1, 500]');
  process.exit(2);
}

const TARGET_CODE = `
const http = require('node:http');
const server = http.createServer((req, res) => { res.setHeader('content-type', 'text/plain'); res.end('ok'); });
server.keepAliveTimeout = 60000;
server.listen(0, '127.0.0.1', () => process.send(server.address().port));
process.on('message', (m) => { if (m === 'stop') server.close(() => process.exit(0)); server.closeAllConnections(); });
`;

async function startTarget(dir: string): Promise<{ url: string; child: ChildProcess }> {
  const file = join(dir, 'target.cjs');
  await writeFile(file, TARGET_CODE);
  const child = fork(file, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const [port] = (await once(child, 'message')) as [number];
  return { url: `http://127.0.0.1:${port}/`, child };
}

async function runAutocannon(url: string): Promise<number> {
  const result = await autocannon({ url, connections: VUS, duration: SECONDS, pipelining: 1 });
  return result.requests.total / SECONDS;
}

/**
 * CPU µs of the main thread alone (Linux /proc; NaN elsewhere): tells the main thread's share
 * (undici, answering the bridge, decoding samples) from the VU workers' and V8's background threads.
 */
function mainThreadCpuUs(): number {
  try {
    const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (USER_HZ, 100 on Linux).
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return NaN;
  }
}

async function runVus(
  url: string,
  dir: string,
  mode: 'loop' | 'command',
): Promise<{ rps: number; mbPerVu: number; samples: number; cpuUsPerReq: number; mainUsPerReq: number }> {
  const script = join(dir, 'bench.js');
  await writeFile(
    script,
    `import http from 'k6/http';\nexport default function () { http.get(__ENV.URL); }\n`,
  );
  const bundle = await loadScript(script);
  let requests = 0;
  let samples = 0;
  const rssBefore = process.memoryUsage().rss;
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
  requests = 0;
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadCpuUs();
  const started = performance.now();
  const deadline = started + SECONDS * 1000;
  if (mode === 'loop') {
    const spec = loopSpec({ endAt: Date.now() + SECONDS * 1000, progress: { durationMs: SECONDS * 1000 } });
    await Promise.all(vus.map((vu) => vu.loop(spec, () => {})));
  } else {
    await Promise.all(
      vus.map(async (vu) => {
        for (let i = 0; performance.now() < deadline; i++)
          await vu.iterate('default', undefined, ctx({ executor: 'constant-vus' }, i));
      }),
    );
  }
  const elapsed = (performance.now() - started) / 1000;
  // CPU of every thread of this process per request: steadier than req/s on a shared machine.
  const cpu = process.cpuUsage(cpuBefore);
  const cpuUsPerReq = (cpu.user + cpu.system) / Math.max(1, requests);
  const mainUsPerReq = (mainThreadCpuUs() - mainBefore) / Math.max(1, requests);
  await Promise.all(vus.map((vu) => vu.close()));
  return { rps: requests / elapsed, mbPerVu, samples, cpuUsPerReq, mainUsPerReq };
}

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-runner-'));
const { url, child } = await startTarget(dir);
try {
  console.log(
    `target: bare node:http in its own process at ${url}; ${VUS} VUs/connections, ${SECONDS} s each`,
  );
  // BENCH_REFERENCE=0 skips autocannon (for profiling the runner alone). The reference runs before and
  // after the runner so a machine that gets busier during the command shows up as a spread.
  const withRef = process.env.BENCH_REFERENCE !== '0';
  const refBefore = withRef ? await runAutocannon(url) : NaN;
  if (withRef) console.log(`autocannon (reference, before): ${refBefore.toFixed(0)} req/s`);
  const ours = await runVus(url, dir, 'loop');
  console.log(
    `runner VUs, looping:            ${ours.rps.toFixed(0)} req/s, ${ours.cpuUsPerReq.toFixed(0)} µs CPU/req, ${ours.mainUsPerReq.toFixed(0)} of them main thread (${ours.samples} samples)`,
  );
  // BENCH_COMMAND=0 skips the command-per-iteration measurement.
  const perCommand = process.env.BENCH_COMMAND === '0' ? undefined : await runVus(url, dir, 'command');
  if (perCommand)
    console.log(
      `runner VUs, command/iteration:  ${perCommand.rps.toFixed(0)} req/s, ${perCommand.cpuUsPerReq.toFixed(0)} µs CPU/req, ${perCommand.mainUsPerReq.toFixed(0)} main (arrival-rate executors' path)`,
    );
  const refAfter = withRef ? await runAutocannon(url) : NaN;
  if (withRef) console.log(`autocannon (reference, after):  ${refAfter.toFixed(0)} req/s`);
  const ref = (refBefore + refAfter) / 2;
  if (withRef)
    console.log(
      `ratio runner/autocannon: ${(ours.rps / ref).toFixed(2)} looping` +
        (perCommand ? `, ${(perCommand.rps / ref).toFixed(2)} command/iteration` : ''),
    );
  console.log(`memory per VU after init: ${ours.mbPerVu.toFixed(1)} MB RSS`);
} finally {
  child.send('stop');
  await rm(dir, { recursive: true, force: true });
}
