// How a VU thread talks to the main thread: events posted without waiting, the blocking call k6's
// synchronous API rides on (Atomics.wait until the answer is on the port), and the sample batches.
import { receiveMessageOnPort } from 'node:worker_threads';
import { SIGNAL, type BridgeCall, type WorkerEvent } from '../bridge/protocol.js';
import type { VuState } from './vu-state.js';

export function post(vu: VuState, ev: WorkerEvent): void {
  vu.port.postMessage(ev);
}

/** Posts to the main thread and blocks this thread until its answer is on the port. */
export function callMainThread(vu: VuState, message: BridgeCall): unknown {
  if (Array.isArray(message)) message[0] = vu.jarResetPending;
  else message.resetJar = vu.jarResetPending;
  vu.jarResetPending = false;
  const signals = vu.signals;
  const httpPort = vu.httpPort;
  Atomics.store(signals, SIGNAL, 0);
  httpPort.postMessage(message);
  for (;;) {
    Atomics.wait(signals, SIGNAL, 0);
    const msg = receiveMessageOnPort(httpPort);
    if (msg) return msg.message;
  }
}

/** Sends the buffered samples (if any). */
export function flush(vu: VuState): void {
  vu.lastFlush = performance.now();
  if (vu.samples.length === 0) return;
  post(vu, { t: 'samples', samples: vu.samples.take() });
}

export function flushIfFull(vu: VuState): void {
  if (vu.samples.length >= 512) flush(vu);
}
