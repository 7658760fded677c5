// The VU worker's end of a socket hosted on the main thread (host/websocket-engine.ts, bridge/websocket-wire.ts), and the ws_* samples
// both WebSocket modules emit, with the tags k6 gives them.
import { MessageChannel, parentPort, receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import { measuredMs } from '@loadlab/k6-format/duration';
import { InterruptSignal, nowMs, type VuRuntime } from '../api/runtime.js';
import type { HostEvent, WorkerCall, WsOpenCall } from '../../bridge/websocket-wire.js';

export type OpenRequest = Omit<WsOpenCall, 't' | 'port' | 'wake'>;

/** Asks the main thread for a socket; `blocking` for a caller that waits with next() (k6/ws). */
export function openChannel(request: OpenRequest, blocking: boolean): HostChannel {
  if (!parentPort) throw new Error('a WebSocket needs a VU worker');
  const { port1, port2 } = new MessageChannel();
  const wake = blocking ? { buffer: new SharedArrayBuffer(4), index: 0 } : undefined;
  const call: WsOpenCall = { t: 'ws-open', ...request, port: port2 };
  if (wake) call.wake = wake;
  parentPort.postMessage(call, [port2]);
  return new HostChannel(port1, wake ? new Int32Array(wake.buffer) : undefined);
}

export class HostChannel {
  constructor(
    readonly port: MessagePort,
    private readonly flag: Int32Array | undefined,
  ) {}

  call(msg: WorkerCall): void {
    this.port.postMessage(msg);
  }

  /** Blocks up to `ms` for the host's next event (blocking channels only). */
  next(ms: number): HostEvent | undefined {
    const seen = Atomics.load(this.flag!, 0);
    const ready = receiveMessageOnPort(this.port);
    if (ready) return ready.message as HostEvent;
    if (ms > 0) Atomics.wait(this.flag!, 0, seen, ms);
    return receiveMessageOnPort(this.port)?.message as HostEvent | undefined;
  }

  close(): void {
    this.port.close();
  }
}

/** gorilla/websocket's words for close codes (its CloseError text). */
const CLOSE_CODE_WORDS: Record<number, string> = {
  1000: 'normal',
  1001: 'going away',
  1002: 'protocol error',
  1003: 'unsupported data',
  1005: 'no status',
  1006: 'abnormal closure',
  1007: 'invalid payload data',
  1008: 'policy violation',
  1009: 'message too big',
  1010: 'mandatory extension missing',
  1011: 'internal server error',
  1015: 'TLS handshake error',
};

/**
 * The error k6 reports when the peer's close frame has a code other than 1000 or 1001 (gorilla's
 * IsUnexpectedCloseError), in gorilla's words; undefined for an expected close.
 */
export function unexpectedCloseError(code: number, reason: string): string | undefined {
  if (code === 1000 || code === 1001) return undefined;
  // 1006 is what `ws` reports for a connection that ended without a close frame: gorilla's read then
  // failed on the stream's end.
  if (code === 1006 && !reason) reason = 'unexpected EOF';
  const words = CLOSE_CODE_WORDS[code];
  return `websocket: close ${code}${words ? ` (${words})` : ''}${reason ? `: ${reason}` : ''}`;
}

/** The User-Agent k6 sends in the handshake (options.userAgent, else its own). */
function userAgent(rt: VuRuntime): string {
  const ua = rt.testOptions?.userAgent;
  return typeof ua === 'string' ? ua : 'Grafana k6/1.3.0';
}

/**
 * The handshake's headers: k6's User-Agent, the VU's cookies for the URL (k6's dialer reads the
 * VU's jar, as for http: ws:// as http://, wss:// as https://), then the script's own headers.
 */
export function handshakeHeaders(rt: VuRuntime, url: string, own: unknown, jar = 0): Record<string, string> {
  const headers: Record<string, string> = { 'User-Agent': userAgent(rt) };
  // Jar 0 is the VU's own (k6/http's `http.cookieJar()`), else a params.jar's.
  const answer = rt.jarSync({ id: jar, op: 'get', url: jarUrl(url) });
  if (answer.ok && answer.cookies) {
    const pairs = Object.entries(answer.cookies).flatMap(([name, values]) =>
      values.map((v) => `${name}=${v}`),
    );
    if (pairs.length > 0) headers.Cookie = pairs.join('; ');
  }
  if (own && typeof own === 'object') {
    for (const [k, v] of Object.entries(own as Record<string, unknown>)) headers[k] = String(v);
  }
  return headers;
}

const jarUrl = (url: string) => url.replace(/^ws(s?):/i, 'http$1:');

/** The handshake response's cookies into the jar that sent the handshake's, as k6's dialer stores them. */
export function storeHandshakeCookies(rt: VuRuntime, url: string, setCookies: string[], jar = 0): void {
  if (setCookies.length > 0) rt.jarSync({ id: jar, op: 'store', url: jarUrl(url), headers: setCookies });
}

/** `tags` of a params object as k6 applies them (each value as a string). */
export function userTags(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = String(v);
  }
  return out;
}

/** True once the iteration must stop (the end of gracefulStop, a stop, abortOnFail). */
export function isInterrupted(rt: VuRuntime): boolean {
  try {
    rt.checkInterrupted();
    return false;
  } catch (err) {
    if (err instanceof InterruptSignal) return true;
    throw err;
  }
}

/**
 * Emits a socket's ws_* samples with one tag set, which the handshake completes (status, subproto).
 * Like k6's PushIfNotDone, nothing is emitted once the iteration is interrupted.
 */
export class WsSamples {
  constructor(
    private readonly rt: VuRuntime,
    public tags: Record<string, string>,
  ) {}

  private record(metric: string, type: 'counter' | 'trend', value: number, time: number): void {
    if (isInterrupted(this.rt)) return;
    const measured = type === 'trend';
    this.rt.record(
      metric,
      type,
      measured ? 'time' : 'default',
      measured ? measuredMs(value) : value,
      { ...this.tags },
      time,
    );
  }

  /** ws_sessions and ws_connecting, both at the connection's start. */
  connected(start: number, connectingMs: number): void {
    this.record('ws_sessions', 'counter', 1, start);
    this.record('ws_connecting', 'trend', connectingMs, start);
  }

  sessionDuration(ms: number, time: number): void {
    this.record('ws_session_duration', 'trend', ms, time);
  }

  message(metric: 'ws_msgs_sent' | 'ws_msgs_received', time = nowMs()): void {
    this.record(metric, 'counter', 1, time);
  }

  ping(ms: number, time: number): void {
    this.record('ws_ping', 'trend', ms, time);
  }
}
