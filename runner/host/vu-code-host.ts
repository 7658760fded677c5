// The main thread's handle on whatever runs a VU's code: a Node worker thread (worker-host.ts) or a
// context in a shared V8 isolate (shared-isolate-host.ts). host/hosted-vu.ts drives a VU through this and answers its calls.
import type { BridgeCall, HostEvent, WorkerCommand, WorkerEvent } from '../bridge/protocol.js';
import type { WorkerInit } from '../vu/worker-init.js';

/**
 * A VU's heap limit, its isolate's or its worker's: k6 sets none, but one VU must not take the
 * machine (and the run) down.
 */
export const VU_HEAP_LIMIT_MB = 512;

/**
 * A VU's code lost because it ran out of memory (its heap passed VU_HEAP_LIMIT_MB; `shared`: the heap of
 * the isolate it shares with other VUs, which go on): one line, whatever the host.
 */
export class VuOutOfMemory extends Error {
  constructor(vuId: number, shared = false) {
    super(
      shared
        ? `VU ${vuId} ran out of memory: its isolate's heap passed the ${VU_HEAP_LIMIT_MB} MB the VUs sharing it may use; the VU starts again`
        : `VU ${vuId} ran out of memory: its heap passed the ${VU_HEAP_LIMIT_MB} MB a VU may use; the VU starts again`,
    );
  }
}

export interface VuCodeHandlers {
  /** A reply, samples, a log line... posted by the VU. */
  onEvent(event: WorkerEvent): void;
  /** The answer to a blocking call (a promise of it), or undefined for a call that has none. */
  onCall(message: BridgeCall): unknown;
  /** The VU's code can no longer run (its thread died; it ran out of memory: VuOutOfMemory). */
  onFailure(error: Error): void;
}

export interface VuCodeHost {
  /** Hands the VU a command; its reply comes back as a 'reply' event. */
  command(cmd: WorkerCommand): void;
  /** An event of the main thread's own (k6/net/grpc streams and async calls). */
  hostEvent(event: HostEvent): void;
  /**
   * Wakes the VU's sleep, where Atomics.notify on its INTERRUPT slot cannot (a sleep that left a
   * shared isolate: shared-isolate-host.ts). Absent where Atomics.notify does.
   */
  wake?(): void;
  /**
   * Ends the VU's code. `busy`: a command has not been answered (its code may run for ever), so it
   * ends at once, wherever it is; else it ends once back between commands, which it is, or is about
   * to be.
   */
  terminate(busy: boolean): Promise<void>;
}

/** Starts a VU's code with its configuration; the handlers hear from it from then on. */
export type StartVuCode = (init: WorkerInit, handlers: VuCodeHandlers) => VuCodeHost;
