// One run of bench:shared-isolate (see ../shared-isolate.ts), in a process of its own so that its
// peak RSS is its own. Prints one JSON line. Arguments: a JSON ProbeRun.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

export interface ProbeRun {
  engine: 'isolated-vm' | 'shared';
  /** isolated-vm's call in mode `call`: the runner's (an asynchronous answer), or a synchronous one. */
  crossing?: 'applySyncPromise' | 'applySync';
  mode: 'sleep' | 'call';
  vus: number;
  perIsolate: number;
  seconds: number;
  /** A sleep's length in mode `sleep` (default 1,000 ms). */
  sleepMs?: number;
  /** The shared probe only: each isolate's first VU loops without a host call for the whole run. */
  busy?: boolean;
  /** The shared probe only: a VU that holds its isolate for long lets the others in (time slicing). */
  slicing?: boolean;
  bundleFile: string;
  addonFile: string;
}

export interface ProbeResult {
  iterations: number;
  startMs: number;
  /** The shared probe's time slices: how often a VU let another into its isolate. */
  slices: number;
  cpuS: number;
  peakMb: number;
}

interface SharedProbe {
  start(
    options: object,
    answer: (vuId: number) => void,
    done: (result: { iterations: number[]; startMs: number; slices: number }) => void,
  ): void;
}

const HEAP_MB = 512; // the runner's VU heap limit
const run = JSON.parse(process.argv[2]!) as ProbeRun;
const bundle = readFileSync(run.bundleFile, 'utf8');
// What each iteration does besides its host call: a response's worth of objects, checked.
const ITERATION = `let n = 0, kept;
  while (host()) {
    n++;
    const res = { status: 200, body: 'ok'.repeat(50), headers: { 'Content-Type': 'text/plain' } };
    kept = [res.status === 200 && res.body.length > 0, JSON.stringify(res.headers)];
  }
  return n;`;
/** JavaScript that allocates without a host call until the run's end (an iteration stuck in a loop). */
const BUSY_LOOP = (seconds: number) => `(() => {
  let kept = [];
  const end = Date.now() + ${seconds * 1000};
  while (Date.now() < end) {
    kept.push({ at: Date.now() });
    if (kept.length > 1000) kept = [];
  }
  return 0;
})()`;
const cpuAtStart = process.cpuUsage();

function finish(iterations: number[], startMs: number, slices = 0): void {
  const cpu = process.cpuUsage(cpuAtStart);
  const peakKb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync('/proc/self/status', 'utf8'))?.[1]);
  const result: ProbeResult = {
    iterations: iterations.reduce((a, b) => a + b, 0),
    startMs,
    slices,
    cpuS: (cpu.user + cpu.system) / 1e6,
    peakMb: peakKb / 1024,
  };
  console.log(JSON.stringify(result));
}

if (run.engine === 'shared') {
  const probe = createRequire(import.meta.url)(run.addonFile) as SharedProbe;
  const options = {
    ...run,
    sleepMs: run.sleepMs ?? 1000,
    slicing: run.slicing === true,
    heapMb: HEAP_MB,
    bundle,
    loop: `(() => { ${ITERATION} })()`,
    busyLoop: run.busy ? BUSY_LOOP(run.seconds) : '',
  };
  probe.start(
    options,
    () => {},
    ({ iterations, startMs, slices }) => finish(iterations, startMs, slices),
  );
} else {
  // A VU as the runner's isolate host makes it: an isolate of its own, the loop's host call a
  // Reference the isolate's thread waits on: applySyncPromise, as the runner's, or for a call
  // applySync, the main thread answering synchronously as the shared probe's does.
  const started = performance.now();
  const deadline = Date.now() + run.seconds * 1000;
  let waitingFirstCall = run.vus;
  let startMs = 0;
  const timeLeft = () => Date.now() < deadline;
  // Loaded here only: the shared probe runs on Node lines this checkout's isolated-vm was not built for.
  const { default: ivm } = await import('isolated-vm');
  const vus = Array.from({ length: run.vus }, async () => {
    let called = false;
    const answer = () => {
      if (!called && (called = true) && --waitingFirstCall === 0) startMs = performance.now() - started;
      if (run.mode === 'call') return run.crossing === 'applySync' ? timeLeft() : Promise.resolve(timeLeft());
      return new Promise((resolve) =>
        setTimeout(() => resolve(timeLeft()), Math.min(run.sleepMs ?? 1000, deadline - Date.now())),
      );
    };
    const isolate = new ivm.Isolate({ memoryLimit: HEAP_MB });
    const [context, script] = await Promise.all([isolate.createContext(), isolate.compileScript(bundle)]);
    await script.run(context);
    await context.global.set('hostRef', new ivm.Reference(answer));
    const loop = await isolate.compileScript(
      `(() => { const host = () => hostRef.${run.mode === 'call' ? run.crossing : 'applySyncPromise'}(undefined, []); ${ITERATION} })()`,
    );
    return (await loop.run(context)) as number;
  });
  void Promise.all(vus).then((iterations) => finish(iterations, startMs));
}
