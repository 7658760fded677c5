// Where an engine run's CPU goes, watched from outside (Linux /proc): the process's CPU before its
// first request (start: process, script, VU initialisation), in its first seconds of requests
// (warm-up: code still being compiled), in the rest of the run (steady state) and after its last
// request (end). The steady state is also split by thread: the main thread, the VU threads (the
// `vus` youngest threads alive at the first request: a Node worker is one thread, started after V8's
// and libuv's own) and the others (V8's compiler and GC helpers, libuv), with each kind's voluntary
// (blocked: waits, wake-ups) and involuntary (preempted) context switches per request. For an
// engine that is not one thread per VU (k6: goroutines on a few threads), pass 0 VUs: every thread
// but the main one counts as "other".
// A whole-run "CPU per request" mixes all four; only the steady state compares engines per request.
import { readdirSync, readFileSync } from 'node:fs';

interface ThreadStat {
  cpuUs: number;
  voluntary: number;
  involuntary: number;
}

interface Poll {
  atMs: number;
  requests: number;
  /** Whole process, exited threads included. */
  processCpuUs: number;
  threads: Map<number, ThreadStat>;
}

export interface ThreadKindSplit {
  cpuUs: number;
  voluntary: number;
  involuntary: number;
}

export interface RunPhases {
  startCpuUs: number;
  warmup: { requests: number; cpuUsPerReq: number };
  steady: {
    requests: number;
    seconds: number;
    cpuUsPerReq: number;
    /** Per request, by thread kind. */
    main: ThreadKindSplit;
    vuThreads: ThreadKindSplit;
    other: ThreadKindSplit;
  };
  /** The process's CPU when the steady state ended: the run's total minus this is its end. */
  cpuUsAtSteadyEnd: number;
}

/** The first seconds of requests, left out of the steady state. */
export const WARMUP_MS = 2000;
const POLL_MS = 250;

function ticksField(stat: string, index: number): number {
  // After the ")" closing the command name; utime and stime are fields 14 and 15 of stat(5), in
  // USER_HZ ticks (100 a second on Linux).
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[index]);
}
function cpuUsOf(stat: string): number {
  return (ticksField(stat, 11) + ticksField(stat, 12)) * 10_000;
}

function readThreads(pid: number): Map<number, ThreadStat> {
  const out = new Map<number, ThreadStat>();
  let tids: string[];
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      const status = readFileSync(`/proc/${pid}/task/${tid}/status`, 'utf8');
      out.set(Number(tid), {
        cpuUs: cpuUsOf(readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8')),
        voluntary: Number(/^voluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
        involuntary: Number(/^nonvoluntary_ctxt_switches:\s+(\d+)/m.exec(status)?.[1] ?? 0),
      });
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

function processCpuUs(pid: number): number | undefined {
  try {
    return cpuUsOf(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * Polls `pid` every 250 ms until stop(); `requests` reads the target's request count. stop() returns
 * undefined when the run was too short to have a steady state (or /proc is not there). `vus` is the
 * number of VU threads (0 for an engine without one thread per VU).
 */
export function watchRunPhases(
  pid: number,
  vus: number,
  requests: () => Promise<number>,
): { stop(): RunPhases | undefined } {
  const polls: Poll[] = [];
  let busy = false;
  // The target counts every run's requests: this run's start from its count now (the engine was
  // just spawned and has sent nothing yet).
  let baseline: number | undefined;
  const poll = () => {
    if (busy) return;
    busy = true;
    void requests()
      .then((count) => {
        if (baseline === undefined) baseline = count;
        const cpu = processCpuUs(pid);
        if (cpu !== undefined)
          polls.push({
            atMs: performance.now(),
            requests: count - baseline,
            processCpuUs: cpu,
            threads: readThreads(pid),
          });
      })
      .finally(() => (busy = false));
  };
  poll();
  const timer = setInterval(poll, POLL_MS);
  return {
    stop() {
      clearInterval(timer);
      return phasesOf(polls, pid, vus);
    },
  };
}

function splitSince(a: Poll, b: Poll, tids: Iterable<number>, requests: number): ThreadKindSplit {
  const out = { cpuUs: 0, voluntary: 0, involuntary: 0 };
  for (const tid of tids) {
    const after = b.threads.get(tid);
    if (!after) continue;
    const before = a.threads.get(tid) ?? { cpuUs: 0, voluntary: 0, involuntary: 0 };
    out.cpuUs += after.cpuUs - before.cpuUs;
    out.voluntary += after.voluntary - before.voluntary;
    out.involuntary += after.involuntary - before.involuntary;
  }
  const n = Math.max(1, requests);
  return { cpuUs: out.cpuUs / n, voluntary: out.voluntary / n, involuntary: out.involuntary / n };
}

export function phasesOf(polls: Poll[], pid: number, vus: number): RunPhases | undefined {
  const first = polls.findIndex((p) => p.requests > 0);
  if (first < 1) return undefined;
  const total = polls[polls.length - 1]!.requests;
  const lastIndex = polls.findIndex((p) => p.requests >= total);
  const started = polls[first - 1]!;
  const warm = polls.find((p) => p.atMs >= started.atMs + WARMUP_MS);
  // The steady state ends one poll before the last request was seen: that poll may hold the run's stop.
  const steadyEnd = polls[lastIndex - 1];
  if (!warm || !steadyEnd || steadyEnd.atMs - warm.atMs < 1000) return undefined;
  const steadyRequests = steadyEnd.requests - warm.requests;
  const others = [...warm.threads.keys()].filter((tid) => tid !== pid).sort((x, y) => x - y);
  const vuTids = new Set(vus > 0 ? others.slice(-vus) : []);
  const otherTids = others.filter((tid) => !vuTids.has(tid));
  return {
    startCpuUs: started.processCpuUs,
    warmup: {
      requests: warm.requests - started.requests,
      cpuUsPerReq: (warm.processCpuUs - started.processCpuUs) / Math.max(1, warm.requests - started.requests),
    },
    steady: {
      requests: steadyRequests,
      seconds: (steadyEnd.atMs - warm.atMs) / 1000,
      cpuUsPerReq: (steadyEnd.processCpuUs - warm.processCpuUs) / Math.max(1, steadyRequests),
      main: splitSince(warm, steadyEnd, [pid], steadyRequests),
      vuThreads: splitSince(warm, steadyEnd, vuTids, steadyRequests),
      other: splitSince(warm, steadyEnd, otherTids, steadyRequests),
    },
    cpuUsAtSteadyEnd: steadyEnd.processCpuUs,
  };
}
