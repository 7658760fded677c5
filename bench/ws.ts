// `npx tsx bench/ws.ts`: WebSocket echo round trips, one after the other on one socket, through
// k6/ws and k6/experimental/websockets, on the runner and on the real k6 in the same command
// (alternating, ROUNDS times each), against the tests' echo server on 127.0.0.1:0. Prints each
// engine's median milliseconds per MESSAGES round trips and the runner's ratio to k6.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
function run(command: string[]): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const child = spawn(command[0]!, [...command.slice(1), 'run', '-q', '--summary-mode=disabled', script], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', WS_URL: echo.url },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
    child.once('error', reject);
    child.once('exit', () => {
      clearTimeout(timer);
      const out: Record<string, number> = {};
      for (const [, name, ms] of stderr.matchAll(/msg="(k6\/ws|websockets) (\d+)"/g)) out[name!] = Number(ms);
      if (Object.keys(out).length !== 2) reject(new Error(`no timings in:\n${stderr.slice(-2000)}`));
      else resolve(out);
    });
  });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const k6 = realK6();
const engines: [string, string[]][] = [
  ['runner', [process.execPath, '--no-node-snapshot', 'bin/loadlab.js']],
];
if (k6) engines.unshift(['k6', [k6]]);
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
