// Bounded HTTP measurements for the service benchmarks: autocannon drives each case against a
// target started in a child process; every response time is kept so p95 is exact.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { statCpuUs } from './thread-cpu.js';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
if (!(SECONDS > 0 && SECONDS <= 60) || !(CONNECTIONS > 0 && CONNECTIONS <= 500)) {
  console.error('BENCH_SECONDS must be in (0, 60] and BENCH_CONNECTIONS in [1, 500]');
  process.exit(2);
}

export interface Target {
  url: string;
  /** The target's process, e.g. to read its CPU time. */
  pid: number;
  stop(): Promise<void>;
}

export async function startTarget(kind: string): Promise<Target> {
  const child: ChildProcess = fork(fileURLToPath(new URL('./serve.ts', import.meta.url)), [kind], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'silent' },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [port] = (await once(child, 'message')) as [number];
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.send('stop');
      await once(child, 'exit');
    },
  };
}

export interface Case {
  name: string;
  method?: 'GET' | 'POST';
  path: string;
  body?: string;
}

export interface Measurement {
  rps: number;
  p95Ms: number;
  errors: number;
}

function run(opts: autocannon.Options, onTime: (ms: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (error, result) => (error ? reject(error) : resolve(result)));
    instance.on('response', (_client, _status, _bytes, ms) => onTime(ms));
  });
}

export async function measure(target: Target, c: Case, seconds = SECONDS): Promise<Measurement> {
  const times: number[] = [];
  const result = await run(
    {
      url: `${target.url}${c.path}`,
      method: c.method ?? 'GET',
      body: c.body,
      headers: c.body ? { 'content-type': 'application/json' } : {},
      connections: CONNECTIONS,
      duration: seconds,
    },
    (ms) => times.push(ms),
  );
  times.sort((a, b) => a - b);
  return {
    rps: result.requests.total / seconds,
    p95Ms: times.length ? times[Math.min(times.length - 1, Math.floor(times.length * 0.95))]! : 0,
    errors: result.errors + result.non2xx,
  };
}

export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows
    .map((r) =>
      r.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  '),
    )
    .join('\n');
}

/** User + system CPU seconds a process has used so far (Linux /proc), or NaN elsewhere. */
export function cpuSeconds(pid: number): number {
  try {
    return statCpuUs(`/proc/${pid}/stat`) / 1e6;
  } catch {
    return Number.NaN;
  }
}
