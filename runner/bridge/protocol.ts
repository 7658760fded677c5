// Messages between a VU worker (the script's thread) and the main thread that owns the VU.
// HTTP goes over its own port so the worker can block on it with Atomics.wait + receiveMessageOnPort.
import { HTTP_TIMING_KEYS } from '@loadlab/k6-format/http-timings';
import type { WsOpenCall } from './websocket-wire.js';
import type { GrpcEvent, GrpcOp } from './grpc-protocol.js';
import type { SampleBatch } from './sample-batch.js';

/** Slots of the Int32Array over the VU's SharedArrayBuffer. */
export const SIGNAL = 0; // bumped by the main thread when an HTTP answer is on the port
export const INTERRUPT = 1; // 1 while the current iteration must stop (sleep returns, next call throws)
export const GO = 2; // 1 while a looping VU may start another iteration (main clears it to stop the loop)
export const STARTED = 3; // iterations this VU has started (lets a delayed ramp-down interrupt hit the right one)
export const LOOP_RAN = 4; // iterations the running loop command has started (its reply, should the worker be killed)
export const VU_SLOTS = 5;

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

/**
 * A request and its answer cross the bridge as positional arrays. Structured clone writes every
 * property name of every object, and the receiver looks each one up again; the same values in a
 * flat array post and arrive in about half the time (one postMessage + receiveMessageOnPort in a
 * cold isolate: a request 4.2 -> 1.9 µs, an answer 6.0 -> 3.7 µs). The main thread turns them into
 * the named shapes below (WireRequest, WireHop, WireResponse); the VU reads answers by index (Hop,
 * Res). The enums are const: esbuild writes their numbers into the worker bundle.
 */
export type RequestTuple = [
  id: number,
  method: string,
  url: string,
  headers: string[],
  body: string | Uint8Array | null,
  timeoutMs: number,
  maxRedirects: number,
  cookies: string[],
  responseType: ResponseType,
  nameTag: string | undefined,
  userTags: Record<string, string> | undefined,
  expect: number[] | null | undefined,
  jar: number,
  digest: boolean,
];

/** What an HttpCall asks of the main thread before its requests: bits of a VU's pending work. */
export const HTTP_FIRST_RESET_JAR = 1;
/** k6's noVUConnectionReuse: the VU's idle connections closed (the first HTTP call after an iteration). */
export const HTTP_FIRST_CLOSE_IDLE = 2;
/** An HTTP call of a blocked VU: what to do first (HTTP_FIRST_* bits), then its requests. */
export type HttpCall = [first: number, ...requests: RequestTuple[]];
/**
 * http.batch's limits, as k6 reads its batch and batchPerHost options: at most `workers` requests in
 * flight, each taking the next one in order, and at most `perHost` of them to one host (0: no limit).
 */
export type BatchLimits = [workers: number, perHost: number];
/** k6's batch and batchPerHost when neither is set (its flags' defaults). */
export const K6_BATCH_DEFAULTS: Readonly<BatchLimits> = [20, 6];
/** Sent on the HTTP port by a blocked VU (resetJar: as in HttpCall). */
export type BridgeCall =
  | HttpCall
  /** http.batch of more than one request: as an HttpCall (`first` its first element), under the batch's limits. */
  | { batch: RequestTuple[]; limits: BatchLimits; first: number }
  | { jar: JarOp; resetJar: boolean }
  /** k6/net/grpc: answered like a request (grpc), or not at all (grpcAsync: events follow). */
  | { grpc: GrpcOp; resetJar: boolean }
  | { grpcAsync: GrpcOp; resetJar?: undefined }
  /** http.asyncRequest: answered by an HttpEvent with the same `call` number, the VU not waiting. */
  | { httpAsync: HttpCall; call: number; resetJar?: undefined };

/** How the body comes back: k6's responseType. 'text' is decoded on the main thread, 'none' dropped. */
export type ResponseType = 'text' | 'binary' | 'none';

export interface WireRequest {
  /** The VU's number for this request: the sample row of its hops names it (sample-batch.ts). */
  id: number;
  method: string;
  url: string;
  /** Names and values alternating. */
  headers: string[];
  body: string | Uint8Array | null;
  timeoutMs: number;
  maxRedirects: number;
  /**
   * Cookies from params.cookies as name, value, replace ('1' or '') triples, sent on this request
   * only, before the jar's (which the engine adds; a replacing one hides the jar's of its name).
   */
  cookies: string[];
  responseType: ResponseType;
  /** params.tags.name or an http.url template's name: the request's name and url tags. */
  nameTag: string | undefined;
  /** params.tags, values as strings; undefined when there are none. */
  userTags: Record<string, string> | undefined;
  /**
   * The response callback, as expectedStatuses ranges [min, max, min, max, ...]: null when there is
   * none (no http_req_failed), undefined for k6's default, 200-399.
   */
  expect: number[] | null | undefined;
  /** The cookie jar: 0 is the VU's own (http.cookieJar()), others are `new http.CookieJar()`s. */
  jar: number;
  /** params.auth 'digest': answer a 401 Digest challenge with the URL's credentials. */
  digest: boolean;
}

/** Main thread: the request a VU sent. */
export function requestFromTuple(t: RequestTuple): WireRequest {
  return {
    id: t[0],
    method: t[1],
    url: t[2],
    headers: t[3],
    body: t[4],
    timeoutMs: t[5],
    maxRedirects: t[6],
    cookies: t[7],
    responseType: t[8],
    nameTag: t[9],
    userTags: t[10],
    expect: t[11],
    jar: t[12],
    digest: t[13],
  };
}

/** k6's default response callback, expectedStatuses({min: 200, max: 399}), as WireRequest.expect ranges. */
export const DEFAULT_EXPECTED: readonly number[] = [200, 399];

/**
 * A hop's Response.timings as values in k6's order (HTTP_TIMING_KEYS, positions HTTP_TIMING): one
 * array of numbers clones cheaper than an object of 8 keys.
 */
export type HopTimings = number[];
export const ZERO_TIMINGS: HopTimings = HTTP_TIMING_KEYS.map(() => 0);

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
  /**
   * The "Request Failed" line's error where the host knows k6's words better than the VU: an error
   * met reading the body (no `Get "url":`, fewer words than `error`), a refused certificate's names.
   */
  bodyError?: string;
  remoteIp: string;
  remotePort: number;
  tlsVersion: string;
  /** Request headers actually sent (names and values alternating), for Response.request. */
  requestHeaders: string[];
  /** When the hop ended (wall-clock ms, sub-ms precision): its samples' time, as k6 takes a trail's end. */
  time: number;
  /**
   * False for a request k6 never hands to its client (a URL it cannot parse, a redirect Location it
   * cannot parse): the answer carries the error, and k6 emits no samples for it.
   */
  sampled: boolean;
  /**
   * Set on the first hop of a digest request: k6 judges it by `status === 401` instead of the
   * response callback (a challenge is what it expects there).
   */
  expected?: boolean;
}

export interface WireResponse {
  hops: WireHop[];
  /** Bytes written to / read from this VU's sockets since the last answer (k6 counts at the dialer). */
  sent: number;
  received: number;
}

/** A WireHop as it crosses to the VU (positions in Hop order; `time` stays on the main thread). */
export type HopTuple = [
  method: string,
  url: string,
  status: number,
  statusText: string,
  proto: string,
  headers: string[],
  body: string | Uint8Array | null,
  timings: HopTimings,
  error: string,
  errorCode: number,
  remoteIp: string,
  remotePort: number,
  tlsVersion: string,
  requestHeaders: string[],
  bodyError: string | undefined,
];

/** HopTuple positions. */
export const enum Hop {
  method,
  url,
  status,
  statusText,
  proto,
  headers,
  body,
  timings,
  error,
  errorCode,
  remoteIp,
  remotePort,
  tlsVersion,
  requestHeaders,
  bodyError,
}

/** A WireResponse as it crosses to the VU (positions in Res order). */
export type ResponseTuple = [hops: HopTuple[], sent: number, received: number];

/** The answers to an http.asyncRequest (the `call` of its httpAsync), as events reach a VU. */
export interface HttpEvent {
  t: 'http';
  call: number;
  answers: ResponseTuple[];
}

/** What the main thread hands a VU that did not wait for it: k6/net/grpc's events and async HTTP answers. */
export type HostEvent = GrpcEvent | HttpEvent;

/** ResponseTuple positions. */
export const enum Res {
  hops,
  sent,
  received,
}

/** Main thread: the answer as it crosses to the VU. */
export function responseTuple(res: WireResponse): ResponseTuple {
  const hops: HopTuple[] = [];
  for (const h of res.hops) {
    hops.push([
      h.method,
      h.url,
      h.status,
      h.statusText,
      h.proto,
      h.headers,
      h.body,
      h.timings,
      h.error,
      h.errorCode,
      h.remoteIp,
      h.remotePort,
      h.tlsVersion,
      h.requestHeaders,
      h.bodyError,
    ]);
  }
  return [hops, res.sent, res.received];
}

/** Operations on a cookie jar of the VU (id as in WireRequest.jar), answered like HTTP requests. */
export type JarOp = { id: number } & (
  | { op: 'set'; url: string; name: string; value: string; opts?: Record<string, unknown> }
  | { op: 'get'; url: string }
  | { op: 'clear'; url: string }
  | { op: 'delete'; url: string; name: string }
  /** A response's Set-Cookie headers (a WebSocket handshake's), stored as k6's client stores them. */
  | { op: 'store'; url: string; headers: string[] }
);

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
  | { cmd: 'summary'; seq: number; data: unknown; testOptions: Record<string, unknown> };

export type WorkerEvent =
  /** A WebSocket for the main thread to host (host/websocket-engine.ts). */
  | WsOpenCall
  | { t: 'reply'; seq: number; ok: true; value: unknown; samples: SampleBatch }
  /** `promise`: setup or teardown left a promise rejected and unhandled (k6: its line, exit 255). */
  | {
      t: 'reply';
      seq: number;
      ok: false;
      error: string;
      kind: 'script' | 'internal' | 'init-promise' | 'promise';
    }
  | { t: 'samples'; samples: SampleBatch }
  /** A looped iteration that has something to report (error, abort, test.fail). */
  | {
      t: 'iteration';
      result: {
        completed: boolean;
        error?: string;
        inPromise?: true;
        abort?: { reason: string };
        markFailed?: string;
      };
    }
  | {
      t: 'log';
      level: 'debug' | 'info' | 'warn' | 'error';
      message: string;
      fields?: Record<string, string>;
    }
  /** A k6/secrets value the script read: redacted from every later log line. */
  | { t: 'secret'; value: string }
  /**
   * A SharedArray or an init file this VU made or read first (keys: ./shared-keys.ts): the VUs
   * started later read it instead of making it again.
   */
  | { t: 'shared'; key: string; buffer: SharedArrayBuffer }
  /** Script cookie jars (their ids) the script can no longer reach: the main thread drops them. */
  | { t: 'jars-freed'; ids: number[] };

/**
 * exec.instance's numbers, one Int32 slot each in a buffer every VU of a run shares: the main
 * thread counts initialised VUs, each VU its active iterations and how they ended.
 */
export const INSTANCE_STATS = {
  vusInitialized: 0,
  vusActive: 1,
  iterationsCompleted: 2,
  iterationsInterrupted: 3,
} as const;
export const INSTANCE_STATS_SLOTS = 4;
/** After the Int32 slots, one Float64: when the test started (setup began), in ms since the Unix epoch. */
const TEST_START_BYTE = 4 * INSTANCE_STATS_SLOTS;
/** The size of a run's shared exec.instance buffer. */
export const INSTANCE_STATS_BYTES = TEST_START_BYTE + 8;
/**
 * The test's start in a run's exec.instance buffer (0 until the main thread sets it): what
 * exec.instance.currentTestRunDuration counts from, as the summary's duration does.
 */
export function testStartIn(buffer: ArrayBufferLike): Float64Array {
  return new Float64Array(buffer, TEST_START_BYTE, 1);
}

/** k6's words for a handleSummary() that returned something other than an object (VU and host both read them). */
export const SUMMARY_NOT_A_MAP = 'handleSummary() should return a map with string keys';
