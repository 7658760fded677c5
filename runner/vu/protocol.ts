// Messages between a VU worker (the script's thread) and the main thread that owns the VU.
// HTTP goes over its own port so the worker can block on it with Atomics.wait + receiveMessageOnPort.
import type { SampleBatch } from './sample-batch.js';

/** Slots of the Int32Array over the VU's SharedArrayBuffer. */
export const SIGNAL = 0; // bumped by the main thread when an HTTP answer is on the port
export const INTERRUPT = 1; // 1 while the current iteration must stop (sleep returns, next call throws)
export const GO = 2; // 1 while a looping VU may start another iteration (main clears it to stop the loop)
export const STARTED = 3; // iterations this VU has started (lets a delayed ramp-down interrupt hit the right one)
export const VU_SLOTS = 4;

/**
 * Slots of a scenario's shared counters (one Int32Array per scenario run), updated with Atomics by
 * whichever thread starts or ends an iteration, so looping VUs need no message per iteration.
 */
export const SC_STARTED = 0; // next iterationInTest
export const SC_LEFT = 1; // shared-iterations: iterations still to hand out
export const SC_COMPLETED = 2;
export const SC_INTERRUPTED = 3;
export const SCENARIO_SLOTS = 4;

/** What a VU needs to run a scenario's iterations back to back without a command per iteration. */
export interface LoopSpec {
  fnName: string;
  data: unknown;
  scenario: {
    name: string;
    executor: string;
    startTime: number;
    env: Record<string, string>;
    tags: Record<string, string>;
    exec: string;
  };
  testOptions: Record<string, unknown>;
  /** This VU's iterations in the scenario so far (exec.vu.iterationInScenario of the first one). */
  iterationInScenario: number;
  /** Epoch ms: no iteration starts at or after it. */
  endAt: number;
  /** per-vu-iterations: how many this VU may still run (Infinity otherwise). */
  maxIterations: number;
  /** shared-iterations: claim each iteration from SC_LEFT. */
  sharedBudget: boolean;
  /** exec.scenario.progress: elapsed / durationMs, or completed / totalIterations. */
  progress: { durationMs: number } | { totalIterations: number };
  scenarioCounters: SharedArrayBuffer;
  /** One slot: the next iterationInInstance, shared by every scenario. */
  instanceCounter: SharedArrayBuffer;
}

/** iterationInTest, progress, iterationInScenario, iterationInInstance of one iteration. */
export type IterationCounts = [number, number, number, number];

/** Sent on the HTTP port by a blocked VU; resetJar: first call of a new iteration (k6 empties the jar then). */
export type BridgeCall = { resetJar: boolean } & ({ reqs: WireRequest[] } | { jar: JarOp });

export interface WireRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | Uint8Array | null;
  timeoutMs: number;
  maxRedirects: number;
  /** Cookies from params.cookies, sent on this request only (jar cookies are added by the engine). */
  cookies: [string, string][];
  /** How the body comes back: k6's responseType. 'text' is decoded on the main thread, 'none' dropped. */
  responseType:
    | 'text'
    | 'binary'
    | 'none'; /** The VU's number for this request: the sample row of its hops names it (sample-batch.ts). */
  id: number;
  /** params.tags.name or an http.url template's name: the request's name and url tags. */
  nameTag: string | undefined;
  /** params.tags, values as strings; undefined when there are none. */
  userTags: Record<string, string> | undefined;
  /**
   * The response callback, as expectedStatuses ranges [min, max, min, max, ...]: null when there is
   * none (no http_req_failed), undefined for k6's default, 200-399.
   */
  expect: number[] | null | undefined;
}

/** k6's default response callback, expectedStatuses({min: 200, max: 399}), as WireRequest.expect ranges. */
export const DEFAULT_EXPECTED: readonly number[] = [200, 399];

/** Response.timings keys, in k6's order; a hop carries the values as a plain array in this order. */
export const HOP_TIMING_KEYS = [
  'duration',
  'blocked',
  'looking_up',
  'connecting',
  'tls_handshaking',
  'sending',
  'waiting',
  'receiving',
] as const;

/** Values in HOP_TIMING_KEYS order: one array of numbers clones cheaper than an object of 8 keys. */
export type HopTimings = number[];
export const ZERO_TIMINGS: HopTimings = [0, 0, 0, 0, 0, 0, 0, 0];

/** One HTTP round trip (each redirect hop is one). */
export interface WireHop {
  method: string;
  url: string;
  status: number;
  statusText: string;
  proto: string;
  /** Raw header names and values as received, alternating. */
  headers: string[];
  /**
   * Body of the last hop only (null when discarded or on error): a string for responseType 'text'
   * (decoded here: a string clones cheaper than bytes, and the worker needs no Buffer), else bytes.
   */
  body: string | Uint8Array | null;
  timings: HopTimings;
  error: string;
  errorCode: number;
  remoteIp: string;
  remotePort: number;
  tlsVersion: string;
  /** Request headers actually sent (names and values alternating), for Response.request. */
  requestHeaders: string[];
  time: number;
}

export interface WireResponse {
  hops: WireHop[];
  /** Bytes written to / read from this VU's sockets since the last answer (k6 counts at the dialer). */
  sent: number;
  received: number;
}

/** Operations on the VU's cookie jar (http.cookieJar()), answered like HTTP requests. */
export type JarOp =
  | { op: 'set'; url: string; name: string; value: string; opts?: Record<string, unknown> }
  | { op: 'get'; url: string }
  | { op: 'clear'; url: string }
  | { op: 'delete'; url: string; name: string };

export type JarAnswer = { ok: true; cookies?: Record<string, string[]> } | { ok: false; error: string };

export type WorkerCommand =
  | { cmd: 'init'; seq: number }
  | { cmd: 'setup'; seq: number; testOptions: Record<string, unknown> }
  | { cmd: 'iterate'; seq: number; fnName: string; data: unknown; ctx: unknown }
  /**
   * The next iteration of the same function, data, options and scenario as the last 'iterate':
   * only its numbers cross (IterationCounts), not the test options and setup data again.
   */
  | { cmd: 'iterate-next'; seq: number; counts: IterationCounts }
  | { cmd: 'loop'; seq: number; spec: LoopSpec }
  | { cmd: 'teardown'; seq: number; data: unknown; testOptions: Record<string, unknown> }
  | { cmd: 'summary'; seq: number; data: unknown };

export type WorkerEvent =
  | { t: 'reply'; seq: number; ok: true; value: unknown; samples: SampleBatch }
  | { t: 'reply'; seq: number; ok: false; error: string; kind: 'script' | 'internal' }
  | { t: 'samples'; samples: SampleBatch }
  /** A looped iteration that has something to report (error, abort, test.fail). */
  | {
      t: 'iteration';
      result: { completed: boolean; error?: string; abort?: { reason: string }; markFailed?: string };
    }
  | {
      t: 'log';
      level: 'debug' | 'info' | 'warn' | 'error';
      message: string;
      fields?: Record<string, string>;
    };
