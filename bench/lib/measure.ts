// Bounded HTTP measurements for the service benchmarks: autocannon drives each case against a
// target started in a child process; every response time is kept so p95 is exact.
import autocannon from 'autocannon';
import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

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

/** Measures every case on every target (one target process at a time) and prints req/s, p95 and ratios to the first reference. */
export async function compare(
  title: string,
  subject: string,
  references: string[],
  cases: Case[],
): Promise<void> {
  console.log(`${title}: ${SECONDS}s x ${CONNECTIONS} connections per case, targets in their own process\n`);
  const results = new Map<string, Measurement[]>();
  for (const kind of [subject, ...references]) {
    const target = await startTarget(kind);
    const list: Measurement[] = [];
    for (const c of cases) {
      // One second of warm-up per case so JIT compilation is not measured; cases that create data
      // (POST) come last so they do not grow what the reads before them return.
      await measure(target, c, 1);
      list.push(await measure(target, c));
    }
    results.set(kind, list);
    await target.stop();
  }
  const header = [
    'case',
    ...[subject, ...references].flatMap((k) => [`${k} req/s`, `${k} p95`]),
    ...references.map((r) => `${subject}/${r}`),
  ];
  const rows = cases.map((c, i) => {
    const cells = [subject, ...references].flatMap((k) => {
      const m = results.get(k)![i]!;
      return [m.rps.toFixed(0), `${m.p95Ms.toFixed(1)}ms`];
    });
    const ratios = references.map(
      (r) => (results.get(subject)![i]!.rps / results.get(r)![i]!.rps).toFixed(2) + 'x',
    );
    return [c.name, ...cells, ...ratios];
  });
  console.log(table([header, ...rows]));
  const errors = [...results.values()].flat().reduce((n, m) => n + m.errors, 0);
  if (errors > 0) console.log(`\nwarning: ${errors} errors or non-2xx answers during the runs`);
}
