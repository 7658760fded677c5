// The runner's bridge with nothing of k6 on it: one worker thread per VU posts a GET to the main
// thread and blocks in Atomics.wait; the main thread sends it with undici (one Agent per VU, as the
// runner does), posts back status, headers and body, and wakes the worker. No Response object, no
// samples, no script. ../shared/design/ARCHITECTURE.md reports a 50-VU prototype of this bridge at
// 1.1x real k6 v1.3 on this machine, so it stands in for k6 (which these machines do not have):
// bench:runner prints the runner's req/s as a ratio to this, measured in the same command.
import { MessageChannel, Worker } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { newThreads, perRequest, splitCpu, threadCpuUs, type CpuSplit } from './thread-cpu.js';

// Plain JavaScript (eval: true) so the workers need no TypeScript loader, like a k6 VU needs none.
const WORKER_CODE = `
const { workerData, receiveMessageOnPort, parentPort } = require('node:worker_threads');
const { slot, port, signals, url, requests } = workerData;
const flags = new Int32Array(signals);
const START = flags.length - 1;
parentPort.postMessage('ready');
Atomics.wait(flags, START, 0);
const endAt = Atomics.load(flags, START) * 1000;
let answer;
for (let sent = 0; sent < requests && Date.now() < endAt; sent++) {
  Atomics.store(flags, slot, 0);
  port.postMessage({ method: 'GET', url });
  for (;;) {
    Atomics.wait(flags, slot, 0);
    const msg = receiveMessageOnPort(port);
    if (msg) { answer = msg.message; break; }
  }
}
port.close();
// Stay alive until the main thread has read this thread's CPU time.
parentPort.postMessage('done');
Atomics.wait(flags, START, endAt / 1000);
`;

export interface BareBridgeResult {
  requests: number;
  seconds: number;
  /** CPU µs of every thread of this process per request. */
  cpuUsPerReq: number;
  /** The same split by thread kind, µs per request. */
  split: CpuSplit;
}

/**
 * Runs `vus` bare-bridge workers against `url` for `seconds`, each for at most `requestsPerVu`
 * requests (bounded: every worker stops at the deadline).
 */
export async function runBareBridge(
  url: string,
  vus: number,
  seconds: number,
  requestsPerVu = Infinity,
): Promise<BareBridgeResult> {
  // One wake-up slot per VU and, last, the start signal holding the deadline in epoch seconds.
  const signals = new SharedArrayBuffer(4 * (vus + 1));
  const flags = new Int32Array(signals);
  let requests = 0;
  const ready: Promise<unknown>[] = [];
  const done: Promise<unknown>[] = [];
  const exited: Promise<unknown>[] = [];
  const threadsBefore = threadCpuUs();
  const agents: Agent[] = [];
  for (let slot = 0; slot < vus; slot++) {
    const { port1, port2 } = new MessageChannel();
    const agent = new Agent({ connections: 1 });
    agents.push(agent);
    port1.on('message', (m: { method: string; url: string }) => {
      void (async () => {
        const res = await request(m.url, { method: 'GET', dispatcher: agent });
        const body = await res.body.text();
        requests++;
        port1.postMessage({ status: res.statusCode, headers: res.headers, body });
        Atomics.store(flags, slot, 1);
        Atomics.notify(flags, slot);
      })();
    });
    const worker = new Worker(WORKER_CODE, {
      eval: true,
      workerData: { slot, port: port2, signals, url, requests: requestsPerVu },
      transferList: [port2],
    });
    ready.push(new Promise((resolve) => worker.once('message', resolve)));
    done.push(new Promise((resolve) => worker.on('message', (m) => m === 'done' && resolve(m))));
    exited.push(new Promise((resolve) => worker.once('exit', resolve)));
  }
  await Promise.all(ready);
  const workerTids = newThreads(threadsBefore);
  // Whole seconds: the deadline travels in an Int32 slot.
  const endAt = Math.ceil(Date.now() / 1000) + seconds;
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const threadsAtStart = threadCpuUs();
  Atomics.store(flags, vus, endAt);
  Atomics.notify(flags, vus);
  await Promise.all(done);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = process.cpuUsage(cpuBefore);
  const split = splitCpu(threadsAtStart, threadCpuUs(), workerTids);
  Atomics.store(flags, vus, 0);
  Atomics.notify(flags, vus);
  await Promise.all(exited);
  await Promise.all(agents.map((a) => a.close()));
  return {
    requests,
    seconds: elapsed,
    cpuUsPerReq: (cpu.user + cpu.system) / Math.max(1, requests),
    split: perRequest(split, requests),
  };
}
