// CPU time per thread of this process, from Linux's /proc/self/task/<tid>/stat (empty elsewhere).
// The runner's cost splits three ways: the main thread (undici, answering the bridge, decoding
// samples), the VU worker threads (the k6 API's JavaScript) and V8's background threads
// (optimising compilers and GC helpers, shared by every isolate); knowing which grew tells where to look.
import { readdirSync, readFileSync } from 'node:fs';

/** User + system CPU µs in a /proc `stat` file (a process's or a thread's); throws when it is gone. */
export function statCpuUs(path: string): number {
  const stat = readFileSync(path, 'utf8');
  // Fields after the ")" of the command name: utime and stime are the 12th and 13th (14 and 15 of
  // stat(5)), in clock ticks of USER_HZ, 100 on Linux.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** CPU µs (user + system) of each live thread, by thread id. */
export function threadCpuUs(): Map<number, number> {
  const out = new Map<number, number>();
  let tids: string[];
  try {
    tids = readdirSync('/proc/self/task');
  } catch {
    return out;
  }
  for (const tid of tids) {
    try {
      out.set(Number(tid), statCpuUs(`/proc/self/task/${tid}/stat`));
    } catch {
      // The thread ended between the listing and the read.
    }
  }
  return out;
}

export interface CpuSplit {
  main: number;
  workers: number;
  background: number;
}

/**
 * CPU µs spent between two snapshots by the main thread, by `workerTids` (threads started for the
 * measured workers), and by every other thread (V8's and libuv's). A thread that ended before
 * `after` is missing from it, so worker threads must still be alive when `after` is taken.
 */
export function splitCpu(
  before: Map<number, number>,
  after: Map<number, number>,
  workerTids: Set<number>,
): CpuSplit {
  const split: CpuSplit = { main: 0, workers: 0, background: 0 };
  for (const [tid, us] of after) {
    const spent = us - (before.get(tid) ?? 0);
    if (tid === process.pid) split.main += spent;
    else if (workerTids.has(tid)) split.workers += spent;
    else split.background += spent;
  }
  return split;
}

/** A split divided by a request count: µs per request by thread kind. */
export function perRequest(split: CpuSplit, requests: number): CpuSplit {
  const n = Math.max(1, requests);
  return { main: split.main / n, workers: split.workers / n, background: split.background / n };
}

/** Thread ids present now and not in `known`: the threads started since `known` was taken. */
export function newThreads(known: Map<number, number>): Set<number> {
  return new Set([...threadCpuUs().keys()].filter((tid) => !known.has(tid)));
}
