// Messages between a VU worker (the script's thread) and the main thread that owns the VU.
// HTTP goes over its own port so the worker can block on it with Atomics.wait + receiveMessageOnPort.
import type { Sample } from '../types.js';

/** Slots of the Int32Array over the VU's SharedArrayBuffer. */
export const SIGNAL = 0; // bumped by the main thread when an HTTP answer is on the port
export const INTERRUPT = 1; // 1 while the current iteration must stop (sleep returns, next call throws)

export interface WireRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: string | Uint8Array | null;
  timeoutMs: number;
  maxRedirects: number;
  /** Cookies from params.cookies, sent on this request only (jar cookies are added by the engine). */
  cookies: [string, string][];
  discardBody: boolean;
}

export interface HopTimings {
  duration: number;
  blocked: number;
  looking_up: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
}

/** One HTTP round trip (each redirect hop is one). */
export interface WireHop {
  method: string;
  url: string;
  status: number;
  statusText: string;
  proto: string;
  /** Raw header pairs as received. */
  headers: [string, string][];
  /** Body of the last hop only (null when discarded or on error). */
  body: Uint8Array | null;
  timings: HopTimings;
  error: string;
  errorCode: number;
  remoteIp: string;
  remotePort: number;
  tlsVersion: string;
  /** Request headers actually sent, for Response.request. */
  requestHeaders: [string, string][];
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
  | { cmd: 'teardown'; seq: number; data: unknown; testOptions: Record<string, unknown> }
  | { cmd: 'summary'; seq: number; data: unknown };

export type WorkerEvent =
  | { t: 'reply'; seq: number; ok: true; value: unknown; samples: Sample[] }
  | { t: 'reply'; seq: number; ok: false; error: string; kind: 'script' | 'internal' }
  | { t: 'samples'; samples: Sample[] }
  | { t: 'log'; level: 'debug' | 'info' | 'warn' | 'error'; message: string };
