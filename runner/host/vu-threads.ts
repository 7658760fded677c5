// The VU worker threads, started before a VU needs one. A thread boots Node, compiles the worker
// bundle from V8's code cache and evaluates its modules, then blocks until a VU hands it its
// configuration (worker.ts reads it from the config port). So a run can start the threads of its
// first VUs while it still loads the script and reads its options, and a VU made from a warm thread
// has only the script's own init left. See bench/MEASUREMENTS.md "Where a run's seconds go".
import { MessageChannel, type MessagePort, type Transferable, Worker } from 'node:worker_threads';
import { workerCode, workerCodeCache, WORKER_FILENAME } from '../vu/worker-code.js';
import type { VuThreadStart } from '../vu/worker-init.js';
import { DYNAMIC_IMPORT } from '../bridge/dynamic-import.js';
import { VU_HEAP_LIMIT_MB } from './vu-code-host.js';

/**
 * Evaluated by every VU thread (`eval: true`): the bundle compiled with the cache, which V8 checks
 * against the source and its own flags (a cache it rejects only costs the compile it saves). Code
 * from a vm.Script has no `import()` (Node's USE_MAIN_CONTEXT_DEFAULT_LOADER is experimental, warns
 * on stderr, and was lost with a code cache: "A dynamic import callback was not specified"), so the
 * bundle imports through a function compiled here, where Node's loader serves `import()`.
 */
const LOADER = `'use strict';
globalThis[Symbol.for('${DYNAMIC_IMPORT}')] = (specifier) => import(specifier);
const { workerData } = require('node:worker_threads');
const vm = require('node:vm');
const script = new vm.Script(workerData.code, { filename: workerData.filename, cachedData: workerData.cache });
workerData.code = workerData.cache = undefined;
script.runInThisContext();`;

export interface VuThread {
  readonly worker: Worker;
  /** Hands the thread its VU's configuration; the ports in `transfer` move to the thread. */
  start(init: object, transfer: Transferable[]): void;
}

class WarmThread implements VuThread {
  readonly worker: Worker;
  private readonly configPort: MessagePort;
  private readonly wake = new Int32Array(new SharedArrayBuffer(4));
  /** Set when the thread ended (bundle error, terminated) before a VU took it. */
  ended = false;

  constructor() {
    const config = new MessageChannel();
    this.configPort = config.port1;
    const data: VuThreadStart & { code?: string; cache?: Buffer; filename: string } = {
      code: workerCode(),
      cache: workerCodeCache(),
      filename: WORKER_FILENAME,
      wake: this.wake.buffer as SharedArrayBuffer,
      configPort: config.port2,
    };
    this.worker = new Worker(LOADER, {
      eval: true,
      workerData: data,
      transferList: [config.port2],
      // A VU that allocates without bound loses its worker (ERR_WORKER_OUT_OF_MEMORY, worker-host.ts)
      // at the limit a VU isolate has; without it V8's fatal error took the whole process down.
      resourceLimits: { maxOldGenerationSizeMb: VU_HEAP_LIMIT_MB },
      // Not `stdin: true`, though a worker without it builds and ends a process.stdin stream at boot
      // (Node's worker_thread.js): while looking for why this branch's 1-VU runs take longer to exit,
      // `stdin: true` and the warm threads together were implicated and neither alone was cleared.
    });
    // Until a VU takes the thread, an error or exit only marks it unusable (take() skips it).
    const ended = () => {
      this.ended = true;
    };
    this.worker.once('error', ended);
    this.worker.once('exit', ended);
    this.worker.unref();
  }

  start(init: object, transfer: Transferable[]): void {
    this.configPort.postMessage(init, transfer);
    this.configPort.close();
    Atomics.store(this.wake, 0, 1);
    Atomics.notify(this.wake, 0);
  }
}

const warm: WarmThread[] = [];

/** Starts threads until `count` are warm (booting or waiting): for VUs the caller knows will come. */
export function warmVuThreads(count: number): void {
  while (warm.length < count) warm.push(new WarmThread());
}

/** Warm threads waiting for a VU (tests). */
export function warmVuThreadCount(): number {
  return warm.length;
}

/** A thread for a VU: a warm one if there is one still alive, else one started now. */
export function takeVuThread(): VuThread {
  for (let t = warm.shift(); t; t = warm.shift()) {
    if (t.ended) continue;
    t.worker.ref();
    return t;
  }
  const fresh = new WarmThread();
  fresh.worker.ref();
  return fresh;
}

/** Warm threads no VU took (a run that ended early): ended, so they cost nothing at exit. */
export async function closeWarmVuThreads(): Promise<void> {
  await Promise.all(warm.splice(0).map((t) => t.worker.terminate()));
}
