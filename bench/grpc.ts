// k6/net/grpc throughput: the runner next to real k6 (REAL_K6, ../shared/tools/k6 or k6 on PATH),
// both from their command lines on the same script against the fixture gRPC server
// (runner/modules/fixtures/grpc/server.ts, its own process on 127.0.0.1:0), alternating runs,
// BENCH_PAIRS (default 3) pairs per case, medians of the runner/k6 ratios of calls per second and
// CPU per call. Cases: one unary invoke per iteration; one bidirectional stream of 10 messages per
// iteration. Bounded: BENCH_SECONDS (default 10) per run, BENCH_VUS (default 10).
import { copyFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realK6 } from '../devkit/real-k6.js';
import { startScript, untilOutput } from '../devkit/script-process.js';
import { median, runEngine, type EngineRunResult } from './lib/engine-run.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const VUS = Number(process.env.BENCH_VUS ?? 10);
const PAIRS = Number(process.env.BENCH_PAIRS ?? 3);
if (
  !(SECONDS > 0 && SECONDS <= 60) ||
  !(VUS > 0 && VUS <= 200) ||
  !(Number.isInteger(PAIRS) && PAIRS >= 1 && PAIRS <= 15)
) {
  console.error('BENCH_SECONDS must be in (0, 60], BENCH_VUS in [1, 200] and BENCH_PAIRS in [1, 15]');
  process.exit(2);
}
const k6 = realK6();
if (!k6) {
  console.error(
    'bench:grpc compares with real k6: none found (REAL_K6, ../shared/tools/k6 or k6 >= 1.0 on PATH)',
  );
  process.exit(2);
}

const FIXTURES = fileURLToPath(new URL('../runner/modules/fixtures/grpc/', import.meta.url));

const PRELUDE = `import grpc from 'k6/net/grpc';
const client = new grpc.Client();
client.load(['grpc'], 'echo.proto');
let connected = false;
function connect() {
  if (!connected) { client.connect(__ENV.GRPC_ADDR, { plaintext: true }); connected = true; }
}
`;
const CASES = {
  'unary invoke': `${PRELUDE}
export default function () {
  connect();
  client.invoke('loadlab.echo.Echo/Say', { text: 'bench' });
}
`,
  'bidirectional stream, 10 messages': `${PRELUDE}
export default function () {
  connect();
  const chat = new grpc.Stream(client, 'loadlab.echo.Echo/Chat');
  let seen = 0;
  chat.on('data', () => { if (++seen === 10) chat.end(); });
  for (let i = 0; i < 10; i++) chat.write({ text: 'bench' });
}
`,
};

async function startServer(): Promise<{ addr: string; stop(): void }> {
  // It prints its port, and stops when its input ends.
  const server = startScript(join(FIXTURES, 'server.ts'), { stdin: 'pipe' });
  const port = /^(\d+)$/m.exec(await untilOutput(server, /^\d+$/m))![1];
  return { addr: `127.0.0.1:${port}`, stop: () => server.child.stdin!.end() };
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-grpc-'));
await mkdir(join(dir, 'grpc'));
await copyFile(join(FIXTURES, 'echo.proto'), join(dir, 'grpc', 'echo.proto'));
const server = await startServer();
try {
  for (const [title, code] of Object.entries(CASES)) {
    const script = join(dir, `${title.replace(/\W+/g, '-')}.js`);
    await writeFile(script, code);
    console.log(`\n${title}: ${VUS} VUs, ${SECONDS} s per run, ${PAIRS} alternating pairs (iterations/s)`);
    const ratios: number[] = [];
    const cpu: number[] = [];
    for (let pair = 0; pair < PAIRS; pair++) {
      const got: Partial<Record<'k6' | 'runner', EngineRunResult>> = {};
      for (const engine of pair % 2 ? (['runner', 'k6'] as const) : (['k6', 'runner'] as const)) {
        const r = await runEngine({
          engine,
          args: [script, '--vus', String(VUS), '--duration', `${SECONDS}s`, '-q'],
          dir,
          env: { GRPC_ADDR: server.addr, K6_NO_USAGE_REPORT: 'true' },
          timeoutMs: (SECONDS + 60) * 1000,
          counter: 'iterations',
        });
        got[engine] = r;
        console.log(
          `  pair ${pair + 1} ${engine.padEnd(6)} ${fmt(r.rps).padStart(6)} it/s, ${fmt(r.cpuUsPerReq)} µs CPU/it`,
        );
      }
      ratios.push(got.runner!.rps / got.k6!.rps);
      cpu.push(got.runner!.cpuUsPerReq / got.k6!.cpuUsPerReq);
    }
    console.log(
      `  runner/k6: it/s ${fmt(median(ratios), 2)} (pairs ${ratios.map((r) => fmt(r, 2)).join(' ')}), ` +
        `CPU per iteration ${fmt(median(cpu), 2)}`,
    );
  }
} finally {
  server.stop();
  await rm(dir, { recursive: true, force: true });
}
