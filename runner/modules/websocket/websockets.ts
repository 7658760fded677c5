// k6/experimental/websockets: the WHATWG-style WebSocket of k6 v1.3 (websockets.go). The socket
// lives on the main thread (host/websocket-engine.ts); its events reach this worker's event loop as port messages,
// so handlers run when the script's JavaScript is idle, as on k6's event loop. Each socket holds
// the iteration open (rt.pending.hold) until it is closed: k6 ends an iteration only then.
import { goError } from '../api/go-error.js';
import { nowMs, type VuRuntime } from '../api/runtime.js';
import { jarIdOf } from '../http/http.js';
import { Blob, receivedBlob, sendableBlobBytes } from './blob.js';
import {
  openChannel,
  unexpectedCloseError,
  handshakeHeaders,
  storeHandshakeCookies,
  userTags,
  WsSamples,
  type HostChannel,
} from './channel.js';
import type { HostEvent } from '../../bridge/websocket-wire.js';

const CONNECTING = 0;
const OPEN = 1;
const CLOSING = 2;
const CLOSED = 3;

/** In k6's order of the on-properties. */
const EVENT_TYPES = ['message', 'error', 'open', 'close', 'ping', 'pong'] as const;
type EventType = (typeof EVENT_TYPES)[number];
type Listener = (event: unknown) => unknown;

export function createWebSocketsModule(rt: VuRuntime): Record<string, unknown> {
  function WebSocket(this: unknown, url: unknown, protocols?: unknown, params?: unknown): object {
    if (!new.target) throw new TypeError("Class constructor WebSocket cannot be invoked without 'new'");
    return openSocket(rt, url, protocols, params);
  }
  return { WebSocket, Blob };
}

function parseUrl(value: unknown): URL {
  if (value === null || value === undefined) throw goError('WebSocket requires a url');
  const text = String(value);
  let url: URL;
  try {
    url = new URL(text);
  } catch (err) {
    throw goError(
      `WebSocket requires valid url, but got ${JSON.stringify(text)} which resulted in ${(err as Error).message}`,
    );
  }
  const scheme = url.protocol.slice(0, -1);
  if (scheme !== 'ws' && scheme !== 'wss') {
    throw goError(`WebSocket requires url with scheme ws or wss, but got ${JSON.stringify(scheme)}`);
  }
  if (url.hash !== '')
    throw goError(`WebSocket requires no url fragment, but got ${JSON.stringify(url.hash.slice(1))}`);
  return url;
}

interface Params {
  /** The script's own headers (handshakeHeaders adds k6's). */
  headers: unknown;
  tags: Record<string, string>;
  compression: boolean;
  /** params.jar's id (0: the VU's jar): sends its cookies and keeps the handshake's. */
  jar: number;
  /**
   * params.jar itself, held while the socket's handler is: a jar the script dropped must not be
   * collected (and its main-thread side dropped) before the handshake's cookies are stored in it.
   */
  jarObject?: unknown;
}

function parseParams(rt: VuRuntime, raw: unknown): Params {
  const out: Params = { headers: {}, tags: {}, compression: false, jar: 0 };
  if (raw === null || raw === undefined) return out;
  for (const [key, value] of Object.entries(raw as Record<string, unknown>)) {
    switch (key) {
      case 'headers':
        out.headers = value;
        break;
      case 'tags':
        out.tags = userTags(value);
        break;
      case 'jar':
        out.jar = jarIdOf(value);
        out.jarObject = value;
        break;
      case 'compression': {
        const algo = String(value).trim();
        if (algo !== 'deflate') {
          throw goError(`unsupported compression algorithm '${algo}', supported algorithm is 'deflate'`);
        }
        out.compression = true;
        break;
      }
      default:
        throw goError(`unknown WebSocket's option ${key}`);
    }
  }
  return out;
}

/** The Go type sobek exports a JavaScript value as (k6 names it when send() refuses the value). */
function goTypeName(value: unknown): string {
  if (value === null || value === undefined) return '<nil>';
  if (typeof value === 'number') return Number.isInteger(value) ? 'int64' : 'float64';
  if (typeof value === 'boolean') return 'bool';
  if (Array.isArray(value)) return '[]interface {}';
  if (typeof value === 'function') return 'func(sobek.FunctionCall) sobek.Value';
  return 'map[string]interface {}';
}

function protocolList(value: unknown): string[] {
  if (value === null || value === undefined) return [];
  if (typeof value === 'string' || value instanceof String) return [String(value)];
  if (Array.isArray(value)) return value.map(String);
  return [];
}

function openSocket(rt: VuRuntime, rawUrl: unknown, protocols: unknown, rawParams: unknown): object {
  // k6 v1.3 crashes on this (a nil pointer, measured); a socket opened in init would hold the VU's
  // first iteration open, so it is refused as k6/ws refuses it.
  if (rt.phase === 'init') throw goError('using websockets in the init context is not supported');
  const url = parseUrl(rawUrl);
  const params = parseParams(rt, rawParams);
  const href = url.href;
  // k6 tags a WebSocket with its url and name (the name tag, when the script gives one, is the url tag too).
  const tags: Record<string, string> = { ...rt.currentTags(), ...params.tags };
  tags.url = params.tags.name ?? href;
  if (params.tags.name === undefined) tags.name = href;
  const samples = new WsSamples(rt, tags);

  const listeners = new Map<EventType, Listener[]>(EVENT_TYPES.map((t) => [t, []]));
  const on = new Map<EventType, Listener | null>(EVENT_TYPES.map((t) => [t, null]));
  let readyState = CONNECTING;
  let bufferedAmount = 0;
  let binaryType: 'blob' | 'arraybuffer' = 'blob';
  let protocol = '';
  let extensions: string[] = [];
  let started = 0;
  const pingsSent = new Map<string, number>();
  let pingCounter = 0;

  const channel: HostChannel = openChannel(
    {
      url: href,
      headers: handshakeHeaders(rt, href, params.headers, params.jar),
      protocols: protocolList(protocols),
      compression: params.compression,
    },
    false,
  );
  const hold = rt.pending.hold(() => {
    // The iteration ends (interrupt, an error elsewhere): the socket goes with it, unheard.
    readyState = CLOSED;
    channel.call({ c: 'terminate' });
    channel.close();
  });

  const socket: Record<string, unknown> = {};
  const event = (type: string, time: number, extra: Record<string, unknown> = {}) => ({
    type,
    target: socket,
    timestamp: time,
    ...extra,
  });
  /** Runs the listeners (the on-handler first, as k6); a throwing one ends the iteration with its error. */
  const dispatch = (type: EventType, ev: object): boolean => {
    const handler = on.get(type);
    const all = handler ? [handler, ...listeners.get(type)!] : listeners.get(type)!;
    for (const listener of all) {
      try {
        listener(ev);
      } catch (err) {
        const wasClosed = readyState === CLOSED;
        readyState = CLOSED;
        channel.call({ c: 'terminate' });
        // k6 closes the socket when an open or message listener throws: the error and close
        // listeners hear of it before the iteration ends with the error.
        if (!wasClosed && (type === 'open' || type === 'message')) {
          if (dispatch('error', event('error', nowMs(), { error: String(err) })))
            dispatch('close', event('close', nowMs()));
        }
        hold.fail(err);
        return false;
      }
    }
    return true;
  };
  const assertOpen = () => {
    if (readyState !== OPEN) throw goError('InvalidStateError');
  };
  const closed = (ev: Extract<HostEvent, { e: 'closed' }> | undefined, error?: string) => {
    if (readyState === CLOSED && !ev) return;
    const wasOpen = started !== 0;
    readyState = CLOSED;
    if (ev) rt.countTraffic(ev.sent, ev.received);
    if (wasOpen) samples.sessionDuration(nowMs() - started, nowMs());
    channel.close();
    const ok = error === undefined || dispatch('error', event('error', nowMs(), { error }));
    if (ok) dispatch('close', event('close', nowMs()));
    hold.release();
  };

  channel.port.on('message', (ev: HostEvent) => {
    if (readyState === CLOSED) return;
    switch (ev.e) {
      case 'open':
        storeHandshakeCookies(rt, href, ev.setCookies, params.jar);
        samples.tags = { ...tags, status: String(ev.status), subproto: ev.protocol };
        samples.connected(ev.start, ev.connectingMs);
        started = ev.start;
        protocol = ev.protocol;
        extensions = ev.extensions;
        if (readyState === CONNECTING) {
          readyState = OPEN;
          dispatch('open', event('open', nowMs()));
        }
        return;
      case 'failed':
        if (ev.status !== undefined) samples.tags = { ...tags, status: String(ev.status), subproto: '' };
        samples.connected(ev.start, ev.connectingMs);
        closed(undefined, ev.error);
        return;
      case 'message': {
        if (readyState !== OPEN) return;
        samples.message('ws_msgs_received', ev.time);
        let data: unknown = ev.data;
        if (typeof ev.data !== 'string' && binaryType === 'blob') data = receivedBlob(ev.data);
        dispatch('message', event('message', ev.time, { data, origin: href }));
        return;
      }
      case 'ping':
        dispatch('ping', event('ping', nowMs()));
        return;
      case 'pong': {
        const sent = pingsSent.get(ev.id);
        if (sent === undefined) rt.log('warn', `received pong for unknown ping ID ${ev.id}`);
        else samples.ping(ev.time - sent, ev.time);
        dispatch('pong', event('pong', nowMs()));
        return;
      }
      case 'error':
        dispatch('error', event('error', nowMs(), { error: ev.message }));
        return;
      case 'closed':
        closed(ev, unexpectedCloseError(ev.code, ev.reason));
    }
  });

  const sendBytes = (bytes: ArrayBuffer) => {
    bufferedAmount += bytes.byteLength;
    channel.call({ c: 'send', data: bytes });
    samples.message('ws_msgs_sent');
    bufferedAmount -= bytes.byteLength;
  };
  const hidden = { enumerable: true, configurable: false };
  Object.defineProperties(socket, {
    addEventListener: {
      ...hidden,
      value: (type: unknown, handler: unknown) => {
        if (typeof handler !== 'function') {
          throw goError(`handler for event type ${JSON.stringify(String(type))} isn't a callable function`);
        }
        const list = listeners.get(String(type) as EventType);
        if (!list) rt.log('warn', `can't add event handler: unknown event type: ${String(type)}`);
        else list.push(handler as Listener);
      },
    },
    send: {
      ...hidden,
      value: (data: unknown) => {
        assertOpen();
        if (typeof data === 'string') {
          bufferedAmount += Buffer.byteLength(data);
          channel.call({ c: 'send', data });
          samples.message('ws_msgs_sent');
          bufferedAmount -= Buffer.byteLength(data);
        } else if (data instanceof ArrayBuffer) sendBytes(data.slice(0));
        else if (ArrayBuffer.isView(data)) sendBytes(data.buffer.slice(0) as ArrayBuffer);
        else {
          const blob = sendableBlobBytes(data);
          if (!blob) throw goError(`unsupported send type ${goTypeName(data)}`);
          sendBytes(blob.slice().buffer);
        }
      },
    },
    ping: {
      ...hidden,
      value: () => {
        assertOpen();
        const id = String(pingCounter++);
        channel.call({ c: 'ping', id });
        pingsSent.set(id, nowMs());
        // k6 writes pings and its close frame through the socket's message queue, which counts
        // every frame it writes as a ws_msgs_sent.
        samples.message('ws_msgs_sent');
      },
    },
    close: {
      ...hidden,
      value: (code?: unknown, reason?: unknown) => {
        if (readyState === CLOSED || readyState === CLOSING) return;
        readyState = CLOSING;
        const c = code === undefined || Number(code) === 0 ? 1000 : Math.trunc(Number(code));
        channel.call({ c: 'close', code: c, reason: reason === undefined ? '' : String(reason) });
        samples.message('ws_msgs_sent');
      },
    },
    url: { ...hidden, value: href },
    readyState: { ...hidden, get: () => readyState },
    bufferedAmount: { ...hidden, get: () => bufferedAmount },
    extensions: { ...hidden, get: () => extensions },
    protocol: { ...hidden, get: () => protocol },
    binaryType: {
      ...hidden,
      get: () => binaryType,
      set: (value: unknown) => {
        if (value !== 'blob' && value !== 'arraybuffer') {
          throw goError(
            `unknown binaryType ${String(value)}, the supported ones are "blob" and "arraybuffer"`,
          );
        }
        binaryType = value;
      },
    },
  });
  for (const type of EVENT_TYPES) {
    Object.defineProperty(socket, `on${type}`, {
      ...hidden,
      get: () => on.get(type),
      set: (value: unknown) => {
        if (value === null || value === undefined) on.set(type, null);
        else if (typeof value !== 'function') throw goError(`a value for 'on${type}' should be callable`);
        else on.set(type, value as Listener);
      },
    });
  }
  return socket;
}
