// The main thread's handle on whatever runs a VU's code: a Node worker thread (worker-host.ts) or a
// bare V8 isolate (isolate-host.ts). host/vu.ts drives a VU through this and answers its calls.
import type { GrpcEvent } from '../bridge/grpc-protocol.js';
import type { BridgeCall, WorkerCommand, WorkerEvent } from '../bridge/protocol.js';
import type { WorkerInit } from '../vu/worker-init.js';

/** A VU's code lost because it ran out of memory (its isolate's heap limit). */
export class VuOutOfMemory extends Error {}

export interface VuCodeHandlers {
  /** A reply, samples, a log line... posted by the VU. */
  onEvent(event: WorkerEvent): void;
  /** The answer to a blocking call (a promise of it), or undefined for a call that has none. */
  onCall(message: BridgeCall): unknown;
  /** The VU's code can no longer run (its thread died; its isolate ran out of memory: VuOutOfMemory). */
  onFailure(error: Error): void;
}

export interface VuCodeHost {
  /** Hands the VU a command; its reply comes back as a 'reply' event. */
  command(cmd: WorkerCommand): void;
  /** An event of the main thread's own (k6/net/grpc streams and async calls). */
  hostEvent(event: GrpcEvent): void;
  /** Ends the VU's code at once, wherever it is. */
  terminate(): Promise<void>;
}

/** Starts a VU's code with its configuration; the handlers hear from it from then on. */
export type StartVuCode = (init: WorkerInit, handlers: VuCodeHandlers) => VuCodeHost;
