// k6/ws: `ws.connect(url, params, callback)` is synchronous, as in k6. It opens the socket (on the
// main thread, host/websocket-engine.ts), runs the callback, fires `open`, then runs the socket's own event loop in
// this thread, blocked on the host's events and the socket's timers, and returns the handshake's
// Response once the socket is closed. Samples, tags and errors follow k6 v1.3's ws.go.
import { goError } from '../api/go-error.js';
import { nowMs, type VuRuntime } from '../api/runtime.js';
import { jarIdOf } from '../http/http.js';
import {
  isInterrupted,
  openChannel,
  unexpectedCloseError,
  handshakeHeaders,
  storeHandshakeCookies,
  userTags,
  WsSamples,
  type HostChannel,
} from './channel.js';
import type { HostEvent } from '../../bridge/websocket-wire.js';

type Handler = (...args: unknown[]) => unknown;

interface SocketTimer {
  due: number;
  fn: Handler;
  /** 0 for a timeout. */
  every: number;
}

export interface WsResponse {
  url: string;
  status: number;
  headers: Record<string, string>;
  body: string;
  error: string;
}

/** gorilla's CloseGoingAway: what k6 closes with by default and on an interrupt. */
const GOING_AWAY = 1001;
/** How often the blocked socket loop looks at the interrupt flag. */
const INTERRUPT_POLL_MS = 20;
/** How long a closed socket waits for the host's byte counts (the close frame is local I/O). */
const CLOSED_WAIT_MS = 2000;
/**
 * k6 closes its end right after writing the close frame: the host drops a connection whose peer
 * has not answered by then. On an interrupt the VU has 250 ms before its worker is terminated
 * (host/hosted-vu.ts), so it waits for the counts only briefly.
 */
const CLOSE_DROP_MS = 1000;
const INTERRUPTED_WAIT_MS = 100;

export function createWsModule(rt: VuRuntime): Record<string, unknown> {
  return { connect: (url: unknown, ...args: unknown[]) => connect(rt, String(url), args) };
}

function connect(rt: VuRuntime, url: string, args: unknown[]): WsResponse {
  if (rt.phase === 'init') throw goError('using websockets in the init context is not supported');
  let params: unknown;
  let callback: unknown;
  if (args.length === 2) [params, callback] = args;
  else if (args.length === 1) [callback] = args;
  else throw goError('invalid number of arguments to ws.connect');
  if (typeof callback !== 'function') throw goError('last argument to ws.connect must be a function');

  const tags = { ...rt.currentTags(), url };
  let compression = false;
  const p = (params ?? {}) as Record<string, unknown>;
  // k6's dialer sends the cookies of params.jar (else the VU's jar) and keeps the handshake's there.
  const jar = jarIdOf(p.jar);
  const headers = handshakeHeaders(rt, url, p.headers, jar);
  if (params !== null && params !== undefined) {
    Object.assign(tags, userTags(p.tags));
    const algo = p.compression === undefined ? '' : String(p.compression).trim();
    if (algo !== '' && algo !== 'deflate') {
      throw goError(`unsupported compression algorithm '${algo}', supported algorithm is 'deflate'`);
    }
    compression = algo === 'deflate';
  }

  const channel = openChannel({ url, headers, protocols: [], compression }, true);
  let first = channel.next(INTERRUPT_POLL_MS);
  while (!first) {
    if (isInterrupted(rt)) {
      channel.call({ c: 'terminate' });
      first = waitFor(channel, INTERRUPTED_WAIT_MS, 'failed', 'closed', 'open');
      break;
    }
    first = channel.next(INTERRUPT_POLL_MS);
  }
  const samples = new WsSamples(rt, tags);
  if (first?.e !== 'open') {
    channel.close();
    const failed = first?.e === 'failed' ? first : undefined;
    const start = failed?.start ?? nowMs();
    samples.connected(start, failed?.connectingMs ?? 0);
    samples.sessionDuration(nowMs() - start, start);
    rt.checkInterrupted();
    const error = failed?.error ?? 'websocket: closed before the handshake';
    if ((rt.testOptions?.throw as boolean | undefined) === true) throw goError(error);
    // A handshake the server answered (403...) is returned as its response, with no error text.
    if (failed?.status !== undefined) {
      return {
        url: '',
        status: failed.status,
        headers: failed.headers ?? {},
        body: failed.body ?? '',
        error: '',
      };
    }
    return { url: '', status: 0, headers: {}, body: '', error };
  }
  storeHandshakeCookies(rt, url, first.setCookies, jar);
  samples.tags = { ...tags, status: String(first.status), subproto: first.protocol };
  samples.connected(first.start, first.connectingMs);
  const socket = new SessionSocket(rt, channel, samples);
  try {
    (callback as Handler)(socket.api);
    socket.fire('open');
    socket.run();
  } catch (err) {
    socket.drop();
    throw err;
  } finally {
    samples.sessionDuration(nowMs() - first.start, first.start);
  }
  return { url, status: first.status, headers: first.headers, body: '', error: '' };
}

/**
 * What an `error` handler receives: k6 hands it the Go error itself, which reads as its message
 * (`${e}`) and has Go's `Error()` method.
 */
function goErrorValue(message: string): object {
  return Object.defineProperties({}, { Error: { value: () => message }, toString: { value: () => message } });
}

/** Blocks until the host sends one of `kinds` (or gives up after `ms`). */
function waitFor(channel: HostChannel, ms: number, ...kinds: HostEvent['e'][]): HostEvent | undefined {
  const end = performance.now() + ms;
  for (let left = ms; left > 0; left = end - performance.now()) {
    const ev = channel.next(left);
    if (ev && kinds.includes(ev.e)) return ev;
  }
  return undefined;
}

/** The `socket` a ws.connect callback receives, and the loop that serves it. */
class SessionSocket {
  private readonly handlers = new Map<string, Handler[]>();
  private readonly timers: SocketTimer[] = [];
  private readonly pingsSent = new Map<string, number>();
  private pingCounter = 0;
  private done = false;
  readonly api: Record<string, unknown>;

  constructor(
    private readonly rt: VuRuntime,
    private readonly channel: HostChannel,
    private readonly samples: WsSamples,
  ) {
    this.api = {
      on: (event: unknown, handler: unknown) => {
        if (typeof handler !== 'function') return;
        const name = String(event);
        this.handlers.set(name, [...(this.handlers.get(name) ?? []), handler as Handler]);
      },
      send: (message: unknown) => {
        this.channel.call({ c: 'send', data: String(message) });
        this.samples.message('ws_msgs_sent');
      },
      sendBinary: (...args: unknown[]) => {
        if (args.length === 0) throw goError('missing argument, expected ArrayBuffer');
        const message = args[0];
        if (!(message instanceof ArrayBuffer)) {
          const type =
            message === null || message === undefined
              ? String(message)
              : String((Object(message) as { constructor?: { name?: string } }).constructor?.name);
          throw goError(`expected ArrayBuffer as argument, received: ${type}`);
        }
        this.channel.call({ c: 'send', data: message.slice(0) });
        this.samples.message('ws_msgs_sent');
      },
      ping: () => {
        const id = String(this.pingCounter++);
        this.channel.call({ c: 'ping', id });
        this.pingsSent.set(id, nowMs());
      },
      close: (code?: unknown) => this.close(code === undefined ? GOING_AWAY : Math.trunc(Number(code))),
      setTimeout: (fn: unknown, ms: unknown) => this.schedule('setTimeout', fn, ms, false),
      setInterval: (fn: unknown, ms: unknown) => this.schedule('setInterval', fn, ms, true),
    };
  }

  private schedule(name: string, fn: unknown, ms: unknown, repeat: boolean): void {
    const delay = Number(ms);
    if (!(delay > 0)) {
      throw goError(`${name} requires a >0 timeout parameter, received ${(Number(delay) || 0).toFixed(2)}`);
    }
    if (typeof fn !== 'function') throw goError(`${name}'s first argument must be a function`);
    this.timers.push({ due: performance.now() + delay, fn: fn as Handler, every: repeat ? delay : 0 });
  }

  fire(event: string, ...args: unknown[]): void {
    for (const handler of this.handlers.get(event) ?? []) handler(...args);
  }

  /** k6's closeConnection: the close frame, the `close` handlers with the code, the loop ends. */
  private close(code: number): void {
    if (this.done) return;
    this.done = true;
    this.channel.call({ c: 'close', code, reason: '', dropAfterMs: CLOSE_DROP_MS });
    this.fire('close', code);
  }

  /** The iteration ends with an error: the connection goes, its bytes are still counted. */
  drop(): void {
    this.done = true;
    this.channel.call({ c: 'terminate' });
    this.finish();
  }

  /** The socket's event loop: host events and timers until the socket is closed. */
  run(): void {
    while (!this.done) {
      if (isInterrupted(this.rt)) {
        this.close(GOING_AWAY);
        break;
      }
      const now = performance.now();
      const next = this.timers.reduce<SocketTimer | undefined>(
        (a, t) => (!a || t.due < a.due ? t : a),
        undefined,
      );
      if (next && next.due <= now) {
        // A ticker, as Go's: the next run is one period after the last was due, not after it ran.
        if (next.every > 0) next.due = Math.max(next.due + next.every, now);
        else this.timers.splice(this.timers.indexOf(next), 1);
        next.fn();
        continue;
      }
      const wait = Math.min(INTERRUPT_POLL_MS, next ? next.due - now : INTERRUPT_POLL_MS);
      const ev = this.channel.next(Math.max(0, wait));
      if (ev) this.handle(ev);
    }
    this.finish();
  }

  private handle(ev: HostEvent): void {
    switch (ev.e) {
      case 'message':
        this.samples.message('ws_msgs_received', ev.time);
        if (typeof ev.data === 'string') this.fire('message', ev.data);
        else this.fire('binaryMessage', ev.data);
        return;
      case 'ping':
        this.fire('ping');
        return;
      case 'pong': {
        const sent = this.pingsSent.get(ev.id);
        if (sent !== undefined) this.samples.ping(ev.time - sent, ev.time);
        this.fire('pong');
        return;
      }
      case 'error':
        this.fire('error', goErrorValue(ev.message));
        return;
      case 'closed': {
        this.closedBy = ev;
        const error = unexpectedCloseError(ev.code, ev.reason);
        if (error !== undefined) this.fire('error', goErrorValue(error));
        this.close(ev.code);
        return;
      }
    }
  }

  private closedBy: Extract<HostEvent, { e: 'closed' }> | undefined;

  /** Waits for the host's last word (the socket's byte counts) and counts them into the iteration. */
  private finish(): void {
    const wait = isInterrupted(this.rt) ? INTERRUPTED_WAIT_MS : CLOSED_WAIT_MS;
    const closed = this.closedBy ?? (waitFor(this.channel, wait, 'closed') as typeof this.closedBy);
    if (closed) this.rt.countTraffic(closed.sent, closed.received);
    this.channel.close();
  }
}
