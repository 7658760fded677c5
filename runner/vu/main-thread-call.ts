// How a VU talks to the main thread: events posted without waiting, the blocking call k6's
// synchronous API rides on, and the sample batches. The transport (vu-transport.ts) carries them.
import {
  HTTP_FIRST_CLOSE_IDLE,
  HTTP_FIRST_RESET_JAR,
  type BridgeCall,
  type WorkerEvent,
} from '../bridge/protocol.js';
import type { VuState } from './vu-state.js';

export function post(vu: VuState, ev: WorkerEvent): void {
  vu.transport.post(ev);
}

/** Hands `message` to the main thread and blocks this VU until its answer is back. */
export function callMainThread(vu: VuState, message: BridgeCall): unknown {
  // k6 empties the jar when an iteration starts: the first call after the start says so.
  // noVUConnectionReuse: the first HTTP call after an iteration closes the VU's idle connections.
  if (Array.isArray(message) || 'batch' in message) {
    const first =
      (vu.jarResetPending ? HTTP_FIRST_RESET_JAR : 0) | (vu.closeIdlePending ? HTTP_FIRST_CLOSE_IDLE : 0);
    if (Array.isArray(message)) message[0] = first;
    else message.first = first;
    vu.closeIdlePending = false;
  } else message.resetJar = vu.jarResetPending;
  vu.jarResetPending = false;
  return vu.transport.call(message);
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
