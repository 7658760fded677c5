// How a VU's code reaches the main thread, whatever hosts it: a Node worker (worker.ts: a MessagePort
// and Atomics.wait) or a context of a shared V8 isolate (isolate/entry.ts: the addon's functions). The
// main thread's events reach either (a worker's event port, the addon's dispatches). The rest of the
// VU's code (vu-main.ts and what it wires) sees only this.
import type { BridgeCall, WorkerEvent } from '../bridge/protocol.js';

export interface VuTransport {
  /** Posts an event (a reply, samples, a log line) without waiting. */
  post(event: WorkerEvent): void;
  /** Hands a call to the main thread and blocks this VU until its answer comes back. */
  call(message: BridgeCall): unknown;
  /** Hands a call to the main thread that has no answer (k6/net/grpc's asynchronous operations). */
  send(message: BridgeCall): void;
  /**
   * Atomics.wait for a host where that would block others (the shared-isolate host's VUs share an
   * isolate: its wait leaves it); woken by the main thread's VuCodeHost.wake(). Absent: Atomics.wait.
   */
  waitSignal?(array: Int32Array, index: number, expected: number, ms: number): string;
  /**
   * Resolves once the host has reported (to onUnhandledRejection) every promise the script has left
   * rejected with no handler so far. Absent where the host reports none.
   */
  rejectionsReported?(): Promise<void>;
  /**
   * The same at once, where the host can: the microtasks queued run first. False when they could
   * not (a microtask is running now: rejectionsReported() must wait for the event loop). Absent
   * where the host cannot.
   */
  reportRejectionsNow?(): boolean;
}
