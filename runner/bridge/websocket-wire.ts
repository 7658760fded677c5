// What crosses between a VU's WebSocket (k6/ws or k6/experimental/websockets, in the VU worker) and
// the socket itself, which lives on the main thread (host.ts) next to the VU's HTTP: the worker
// cannot keep a socket of its own while k6/ws holds it blocked, so both modules use the same host.

import type { MessagePort } from 'node:worker_threads';

/** Posted by the worker (as a WorkerEvent) to open a socket; `port` carries the rest both ways. */
export interface WsOpenCall {
  t: 'ws-open';
  port: MessagePort;
  url: string;
  headers: Record<string, string>;
  protocols: string[];
  compression: boolean;
  /**
   * For a worker that blocks while the socket lives (k6/ws): the host notifies this Int32Array slot
   * (a counter) after each event it posts, so the worker's Atomics.wait wakes and reads the port.
   */
  wake?: { buffer: SharedArrayBuffer; index: number };
}

/** Host -> worker. Times are epoch milliseconds. */
export type HostEvent =
  | {
      e: 'open';
      status: number;
      /** Canonical names, repeated values joined with ", " (as k6's Response). */
      headers: Record<string, string>;
      /** The handshake response's Set-Cookie headers, one each, for the jar the handshake used. */
      setCookies: string[];
      protocol: string;
      extensions: string[];
      start: number;
      connectingMs: number;
    }
  | {
      e: 'failed';
      /** Go's wording of the dial or handshake error. */
      error: string;
      start: number;
      connectingMs: number;
      status?: number;
      headers?: Record<string, string>;
      body?: string;
    }
  | { e: 'message'; data: string | ArrayBuffer; time: number }
  | { e: 'ping' }
  | { e: 'pong'; id: string; time: number }
  | { e: 'error'; message: string }
  /** The socket is gone: the close code (the peer's, or 1006 when none came) and its byte counts. */
  | { e: 'closed'; code: number; reason: string; sent: number; received: number; time: number };

/** Worker -> host. */
export type WorkerCall =
  | { c: 'send'; data: string | ArrayBuffer }
  | { c: 'ping'; id: string }
  /** `dropAfterMs`: end the connection then even if the peer has not answered the close frame. */
  | { c: 'close'; code: number; reason: string; dropAfterMs?: number }
  /** The iteration ends now (interrupt, thrown error): drop the connection without a handshake. */
  | { c: 'terminate' };
