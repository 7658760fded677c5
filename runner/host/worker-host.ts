// A VU's code in a Node worker thread (the fallback host: see vu-host-choice.ts). The worker posts
// its blocking calls on an HTTP port and sleeps with Atomics.wait on its SIGNAL slot; the answer is
// posted back and the worker woken with the others answered in the same event-loop turn.
import { MessageChannel } from 'node:worker_threads';
import { SIGNAL, type BridgeCall, type HostEvent, type WorkerEvent } from '../bridge/protocol.js';
import type { WorkerThreadInit } from '../vu/worker-init.js';
import { takeVuThread } from './vu-threads.js';
import { VuOutOfMemory, type StartVuCode } from './vu-code-host.js';

/**
 * Blocked VUs whose answer is posted, woken together once this event-loop turn has handled all its
 * ready I/O. An immediate Atomics.notify per answer held the main thread ~70 µs of wall time each
 * (timed around the call; likely the woken worker taking the core), so responses that were ready
 * waited behind it. bench:runner, A/B: main-thread CPU per request 89-128 -> 70-79 µs.
 */
const wakeQueue: Int32Array[] = [];
function wakeLater(signals: Int32Array): void {
  wakeQueue.push(signals);
  if (wakeQueue.length === 1) setImmediate(wakeAll);
}
function wakeAll(): void {
  for (const signals of wakeQueue.splice(0)) {
    Atomics.store(signals, SIGNAL, 1);
    Atomics.notify(signals, SIGNAL);
  }
}

export const startWorkerVuCode: StartVuCode = (init, handlers) => {
  const calls = new MessageChannel();
  const events = new MessageChannel();
  const signals = new Int32Array(init.signals);
  const threadInit: WorkerThreadInit = { ...init, httpPort: calls.port2, eventPort: events.port2 };
  const thread = takeVuThread();
  thread.start(threadInit, [calls.port2, events.port2]);
  const worker = thread.worker;
  const answer = (value: unknown) => {
    calls.port1.postMessage(value);
    wakeLater(signals);
  };
  calls.port1.on('message', (msg: BridgeCall) => {
    const value = handlers.onCall(msg);
    if (value === undefined) return;
    if (value instanceof Promise) void value.then(answer);
    else answer(value);
  });
  calls.port1.unref();
  events.port1.unref();
  let ended = false;
  worker.on('message', (ev: WorkerEvent) => {
    if (!ended) handlers.onEvent(ev);
  });
  worker.on('error', (err: NodeJS.ErrnoException) => {
    if (ended) return;
    // Past its resourceLimits (vu-threads.ts) the worker is gone, and only this VU with it.
    if (err.code === 'ERR_WORKER_OUT_OF_MEMORY') {
      ended = true;
      handlers.onFailure(new VuOutOfMemory(init.vuId));
    } else handlers.onFailure(err);
  });
  worker.on('exit', (code) => {
    if (!ended) handlers.onFailure(new Error(`VU ${init.vuId} worker exited unexpectedly (code ${code})`));
  });
  return {
    command: (cmd) => worker.postMessage(cmd),
    hostEvent: (event: HostEvent) => events.port1.postMessage(event),
    async terminate() {
      ended = true;
      await worker.terminate();
      calls.port1.close();
      events.port1.close();
    },
  };
};
