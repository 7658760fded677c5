// One k6-compatible engine run from the command line, measured from outside as a user would see
// it: requests and req/s from its --summary-export, its CPU time (bash's `times` for the finished
// child: exact, startup and summary included) and its peak RSS (VmHWM, Linux; NaN elsewhere).
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../../devkit/command.js';
import { engineCommand } from '../../devkit/loadlab-run.js';
import { watchRunPhases, type RunPhases } from './run-phases.js';

export interface EngineRunResult {
  requests: number;
  rps: number;
  cpuUsPerReq: number;
  peakRssMb: number;
  /** With a `watch`: the run's CPU by phase (and its end: the total minus the CPU at the steady end). */
  phases?: RunPhases & { endCpuUs: number };
}

/** Asks runEngine to split the run's CPU by phase (run-phases.ts), counting the target's requests. */
export interface PhaseWatch {
  /** VU threads of the engine (0: not one thread per VU). */
  vus: number;
  requests(): Promise<number>;
}

/** `0m1.230s 0m0.450s` (children's user and system time, the last line of `times`) in µs. */
export function parseTimesLine(line: string): number {
  const parts = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  if (parts.length !== 2) throw new Error(`unexpected \`times\` output: ${line}`);
  return Math.round((parts[0]! + parts[1]!) * 1e6);
}

function peakRssKb(pid: number): number | undefined {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) : undefined;
  } catch {
    return undefined; // gone, or not Linux
  }
}

export interface EngineRun {
  engine: 'k6' | 'runner';
  /** What follows `run`: the script and its flags. */
  args: string[];
  /** The runner's bin/loadlab.js (default this checkout's; BENCH_LOADLAB names another's). */
  loadlab?: string;
  /** The working folder, which receives the summary export. */
  dir: string;
  /** Added to this process's environment. */
  env: Record<string, string>;
  timeoutMs: number;
  /**
   * What counts as a request: a counter metric of the export (http_reqs, or iterations for a script
   * that makes one call per iteration).
   */
  counter?: string;
  watch?: PhaseWatch;
}

/**
 * Runs `run` on one engine (devkit's engineCommand and runCommand: the same command line, bound and
 * output as the tests'), wrapped in bash so that `times` reports the finished engine's CPU.
 */
export async function runEngine({
  engine,
  args,
  loadlab,
  dir,
  env,
  timeoutMs,
  counter = 'http_reqs',
  watch,
}: EngineRun): Promise<EngineRunResult> {
  const exported = join(dir, `export-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  const [command, commandArgs] = engineCommand(engine === 'k6' ? 'k6' : 'node', args, { loadlab });
  // bash waits for the engine, then `times` reports the CPU of its finished child.
  const wrapper = '"$@" & child=$!; echo "pid $child" >&2; wait $child; s=$?; times >&2; exit $s';
  let enginePid: number | undefined;
  let peakKb = NaN;
  let watcher: ReturnType<typeof watchRunPhases> | undefined;
  const poll = setInterval(() => {
    const kb = enginePid === undefined ? undefined : peakRssKb(enginePid);
    if (kb !== undefined) peakKb = Number.isNaN(peakKb) ? kb : Math.max(peakKb, kb);
  }, 100);
  const run = await runCommand(
    'bash',
    ['-c', wrapper, 'bash', command, ...commandArgs, '--summary-export', exported],
    {
      cwd: dir,
      env: { ...process.env, ...env },
      timeoutMs,
      onOutput: (proc) => {
        enginePid ??= Number(/^pid (\d+)$/m.exec(proc.err())?.[1]) || undefined;
        if (watch && enginePid && !watcher) watcher = watchRunPhases(enginePid, watch.vus, watch.requests);
      },
    },
  ).finally(() => clearInterval(poll));
  const phases = watcher?.stop();
  if (run.code !== 0)
    throw new Error(`${command} exited ${run.code ?? run.signal}: ${run.stderr.slice(-2000)}`);
  const lines = run.stderr.trim().split('\n');
  const cpuUs = parseTimesLine(lines[lines.length - 1]!);
  const summary = JSON.parse(readFileSync(exported, 'utf8')) as {
    metrics: Record<string, { count: number; rate: number }>;
  };
  const { count, rate } = summary.metrics[counter] ?? { count: 0, rate: 0 };
  return {
    requests: count,
    rps: rate,
    cpuUsPerReq: cpuUs / Math.max(1, count),
    peakRssMb: peakKb / 1024,
    ...(phases ? { phases: { ...phases, endCpuUs: cpuUs - phases.cpuUsAtSteadyEnd } } : {}),
  };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/** The runner a benchmark measures: BENCH_LOADLAB (another checkout's bin/loadlab.js, the figures before a change) or this checkout's. */
export function benchLoadlab(): string {
  return resolve(
    process.env.BENCH_LOADLAB ?? fileURLToPath(new URL('../../bin/loadlab.js', import.meta.url)),
  );
}
