// `npx tsx bench/ws.ts`: WebSocket echo round trips, one after the other on one socket, through
// k6/ws and k6/experimental/websockets, on the runner and on the real k6 in the same command
// (alternating, ROUNDS times each), against the tests' echo server on 127.0.0.1:0. Prints each
// engine's median milliseconds per MESSAGES round trips and the runner's ratio to k6.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../devkit/loadlab-run.js';
import { realK6 } from '../devkit/real-k6.js';
import { startEchoServer } from '../runner/modules/websocket/echo-server.js';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 2000);
if (!(ROUNDS >= 1 && ROUNDS <= 50) || !(MESSAGES >= 1 && MESSAGES <= 100_000)) {
  console.error('BENCH_ROUNDS must be in [1, 50] and BENCH_MESSAGES in [1, 100000]');
  process.exit(2);
}

const script = join(mkdtempSync(join(tmpdir(), 'loadlab-bench-ws-')), 'round-trips.js');
writeFileSync(
  script,
  `import ws from 'k6/ws';
import { WebSocket } from 'k6/experimental/websockets';
export const options = { vus: 1, iterations: 1 };
const N = ${MESSAGES};
export default function () {
  let t0 = Date.now();
  ws.connect(__ENV.WS_URL, (s) => {
    let n = 0;
    s.on('open', () => s.send('m'));
    s.on('message', () => (++n < N ? s.send('m') : s.close()));
  });
  console.log('k6/ws ' + (Date.now() - t0));
  t0 = Date.now();
  const w = new WebSocket(__ENV.WS_URL);
  let n = 0;
  w.onopen = () => w.send('m');
  w.onmessage = () => (++n < N ? w.send('m') : w.close());
  w.onclose = () => console.log('websockets ' + (Date.now() - t0));
}
`,
);

const echo = await startEchoServer();

/** One run: the ms of each module's round trips, read from the script's log lines. */
async function run(engine: 'k6' | 'node'): Promise<Record<string, number>> {
  const { stderr } = await runLoadlab(['-q', '--summary-mode=disabled', script], {
    engine,
    env: { WS_URL: echo.url },
    timeoutMs: 120_000,
  });
  const out: Record<string, number> = {};
  for (const [, name, ms] of stderr.matchAll(/msg="(k6\/ws|websockets) (\d+)"/g)) out[name!] = Number(ms);
  if (Object.keys(out).length !== 2) throw new Error(`no timings in:\n${stderr.slice(-2000)}`);
  return out;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const k6 = realK6();
const engines: [string, 'k6' | 'node'][] = [['runner', 'node']];
if (k6) engines.unshift(['k6', 'k6']);
else console.log('no real k6 here (../shared/tools/k6 or REAL_K6): the runner alone');
const times: Record<string, Record<string, number[]>> = {};
for (let i = 0; i < ROUNDS; i++) {
  for (const [engine, command] of engines) {
    const t = await run(command);
    for (const [module, ms] of Object.entries(t)) ((times[engine] ??= {})[module] ??= []).push(ms);
  }
}
await echo.close();
console.log(`${MESSAGES} round trips, median of ${ROUNDS} runs (ms):`);
for (const module of ['k6/ws', 'websockets']) {
  const runner = median(times.runner![module]!);
  const ref = times.k6 ? median(times.k6[module]!) : undefined;
  const ratio = ref ? `, runner/k6 ${(runner / ref).toFixed(2)}x` : '';
  console.log(`  ${module.padEnd(10)} runner ${runner}${ref !== undefined ? `, k6 ${ref}` : ''}${ratio}`);
}
