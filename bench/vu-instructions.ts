// Instructions per request of a VU thread, counted by valgrind's callgrind: the runner's VU next to
// the bare bridge's (bench/lib/bare-bridge.ts, the stand-in for k6), one VU each, in the same
// command. Counts do not swing with the machine's load the way bench:runner's req/s and CPU times
// do (2x on a shared 2-core host), so a change of a few percent shows. A VU thread's CPU time
// follows its instruction count (bench:runner), and at 50 VUs every isolate runs its code in V8's
// baseline tier for the first ~30 s: BENCH_TIER=baseline (the default) keeps the code there
// (--max-opt=1); BENCH_TIER=all lets V8 optimise as usual. Linux with valgrind only.
// Each VU sends BENCH_WARM requests (default 200), then BENCH_REQUESTS (default 1000) and twice as
// many: the difference of the two counted phases, per request, is what is printed (bounded).
// BENCH_CHECKS=1 gives the runner's VU bench:runner's script (two checks per iteration).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const WARM = Number(process.env.BENCH_WARM ?? 200);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 1000);
const TIER = process.env.BENCH_TIER ?? 'baseline';
if (!(WARM >= 1 && WARM <= 100_000) || !(REQUESTS >= 10 && REQUESTS <= 100_000)) {
  console.error('BENCH_WARM must be in [1, 100000] and BENCH_REQUESTS in [10, 100000]');
  process.exit(2);
}
if (TIER !== 'baseline' && TIER !== 'all') {
  console.error(`BENCH_TIER must be baseline or all, not "${TIER}"`);
  process.exit(2);
}
if (spawnSync('valgrind', ['--version']).error || spawnSync('callgrind_control', ['-h']).error) {
  console.error(
    'bench:vu-instructions needs valgrind and callgrind_control (Debian: apt-get install valgrind)',
  );
  process.exit(2);
}

const SUBJECT = fileURLToPath(new URL('./lib/vu-instructions-subject.ts', import.meta.url));

interface Counted {
  /** Instructions per request: the busiest thread other than the main one (the VU's), and the main thread. */
  vu: number;
  main: number;
}

/** Runs one subject under callgrind: counters zeroed after the warm-up, dumped after each counted phase. */
async function count(subject: 'runner' | 'bridge'): Promise<Counted> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-callgrind-'));
  try {
    const child = spawn(
      'valgrind',
      [
        '-q',
        '--tool=callgrind',
        '--separate-threads=yes',
        // V8 writes code at run time: valgrind must see it change.
        '--smc-check=all-non-file',
        `--callgrind-out-file=${join(dir, 'cg')}`,
        process.execPath,
        // V8 otherwise copies its builtins out of the binary; no effect on the counts, kept for reading profiles.
        '--no-short-builtin-calls',
        ...(TIER === 'baseline' ? ['--max-opt=1'] : []),
        '--import',
        'tsx',
        SUBJECT,
        subject,
        String(WARM),
        String(REQUESTS),
      ],
      { stdio: ['pipe', 'pipe', 'inherit'] },
    );
    const control = (flag: string) =>
      spawnSync('callgrind_control', [flag, String(child.pid)], { stdio: 'ignore' });
    for await (const line of createInterface({ input: child.stdout })) {
      if (line === 'warm') control('--zero');
      else if (line === 'one' || line === 'two') control('--dump');
      else continue;
      child.stdin.write('go\n');
    }
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    if (code !== 0) throw new Error(`the ${subject} subject exited with code ${code}`);
    const one = dumped(dir, 1);
    const two = dumped(dir, 2);
    return { vu: (two.busiest - one.busiest) / REQUESTS, main: (two.main - one.main) / REQUESTS };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Dump `n`'s instruction counts: files cg.<n>-01 (thread 1, the main one), cg.<n>-02 and on. */
function dumped(dir: string, n: number): { main: number; busiest: number } {
  const perThread = new Map<number, number>();
  for (const file of readdirSync(dir)) {
    const m = /^cg\.(\d+)-(\d+)$/.exec(file);
    if (!m || Number(m[1]) !== n) continue;
    const summary = /^summary: (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (summary) perThread.set(Number(m[2]), Number(summary[1]));
  }
  const main = perThread.get(1);
  const others = [...perThread].filter(([t]) => t !== 1).map(([, count]) => count);
  if (main === undefined || others.length === 0) throw new Error(`callgrind wrote no dump ${n}`);
  return { main, busiest: Math.max(...others) };
}

const k = (n: number) => `${(n / 1000).toFixed(1)}k`;
console.log(
  `callgrind, 1 VU, ${TIER === 'baseline' ? 'baseline tier only (--max-opt=1)' : 'all tiers'}, ` +
    `${REQUESTS} requests counted after ${WARM}`,
);
const bridge = await count('bridge');
console.log(
  `bare bridge (k6 stand-in): VU thread ${k(bridge.vu)} instructions/request, main thread ${k(bridge.main)}`,
);
const runner = await count('runner');
console.log(
  `runner VU:                 VU thread ${k(runner.vu)} instructions/request, main thread ${k(runner.main)}`,
);
// The main thread is one hot isolate in a run: its count is only meaningful with BENCH_TIER=all.
console.log(
  `ratio runner / bridge: VU thread ${(runner.vu / bridge.vu).toFixed(2)}, ` +
    `main thread ${(runner.main / bridge.main).toFixed(2)}${TIER === 'baseline' ? ' (see BENCH_TIER=all)' : ''}`,
);
