// BENCH_SPLIT=N: the runner's VUs shared out over N runner processes started together, the ceiling
// of a host that spreads its VUs and their I/O over N threads (the isolate-host issue's "one thread
// per core"): processes share nothing, so no thread split can do better on the same cores. Each
// process gets its share of the VUs; the figures add up (requests, CPU, peak RSS as the sum of the
// processes' peaks) and the wall time is the longest process's.
import type { EngineRunResult } from './engine-run.js';

/** BENCH_SPLIT from the environment: 1 (no split) unless a whole number of processes in [2, 16]. */
export function benchSplit(env: NodeJS.ProcessEnv = process.env): number | Error {
  const raw = env.BENCH_SPLIT;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 16)
    return new Error(`BENCH_SPLIT must be a whole number of processes in [1, 16], not "${raw}"`);
  return n;
}

/** `vus` dealt over `parts` processes, the first ones taking one more when it does not divide. */
export function shareVus(vus: number, parts: number): number[] {
  if (parts > vus) throw new Error(`cannot split ${vus} VUs over ${parts} processes`);
  const base = Math.floor(vus / parts);
  return Array.from({ length: parts }, (_, i) => base + (i < vus % parts ? 1 : 0));
}

/** One measurement made of several runs at once: what they did together. */
export function combineRuns(runs: EngineRunResult[]): EngineRunResult {
  const requests = runs.reduce((sum, r) => sum + r.requests, 0);
  const cpuUs = runs.reduce((sum, r) => sum + r.cpuUsPerReq * Math.max(1, r.requests), 0);
  return {
    requests,
    rps: runs.reduce((sum, r) => sum + r.rps, 0),
    cpuUsPerReq: cpuUs / Math.max(1, requests),
    peakRssMb: runs.reduce((sum, r) => sum + r.peakRssMb, 0),
  };
}

/** Runs `one(vus, index)` for each share of `vus` at once and combines them; also the wall time. */
export async function runSplit(
  vus: number,
  parts: number,
  one: (vus: number, index: number) => Promise<EngineRunResult>,
): Promise<EngineRunResult & { wallS: number }> {
  const started = performance.now();
  const runs = await Promise.all(shareVus(vus, parts).map((share, i) => one(share, i)));
  return { ...combineRuns(runs), wallS: (performance.now() - started) / 1000 };
}
