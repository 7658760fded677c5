// How a VU talks to the main thread: events posted without waiting, the blocking call k6's
// synchronous API rides on, and the sample batches. The transport (vu-transport.ts) carries them.
import {
  HTTP_FIRST_CLOSE_IDLE,
  HTTP_FIRST_RESET_JAR,
  type BridgeCall,
  type RequestTuple,
  type WorkerEvent,
} from '../bridge/protocol.js';
import type { VuState } from './vu-state.js';

export function post(vu: VuState, ev: WorkerEvent): void {
  vu.transport.post(ev);
}

/**
 * What an HTTP call asks first (HTTP_FIRST_* bits), taken: k6 empties the jar when an iteration
 * starts, and with noVUConnectionReuse closes the VU's idle connections after one; the first call
 * after either says so.
 */
function takeHttpFirst(vu: VuState): number {
  const first =
    (vu.jarResetPending ? HTTP_FIRST_RESET_JAR : 0) | (vu.closeIdlePending ? HTTP_FIRST_CLOSE_IDLE : 0);
  vu.jarResetPending = false;
  vu.closeIdlePending = false;
  return first;
}

/** Hands `message` to the main thread and blocks this VU until its answer is back. */
export function callMainThread(vu: VuState, message: BridgeCall): unknown {
  if (Array.isArray(message)) message[0] = takeHttpFirst(vu);
  else if ('batch' in message) message.first = takeHttpFirst(vu);
  else {
    message.resetJar = vu.jarResetPending;
    vu.jarResetPending = false;
  }
  return vu.transport.call(message);
}

/** Hands requests to the main thread without waiting: their answers come back as an HttpEvent of `call`. */
export function sendHttp(vu: VuState, requests: RequestTuple[], call: number): void {
  vu.transport.send({ httpAsync: [takeHttpFirst(vu), ...requests], call });
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
