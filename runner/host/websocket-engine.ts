// The main thread's side of a VU's WebSocket (see ../bridge/websocket-wire.ts): one `ws` client
// socket per WsOpenCall, its events posted to the worker, the worker's calls applied to it. The `ws`
// package is the well-kept Node implementation (RFC 6455 framing, ping/pong, close handshake,
// permessage-deflate).
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import WebSocket from 'ws';
import { canonicalHeaderKey } from '../bridge/go-http.js';
import type { HostEvent, WorkerCall, WsOpenCall } from '../bridge/websocket-wire.js';

/** k6's (gorilla's) handshake timeout. */
const HANDSHAKE_TIMEOUT_MS = 60_000;

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  const raw = res.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    const name = canonicalHeaderKey(raw[i]!);
    out[name] = out[name] === undefined ? raw[i + 1]! : `${out[name]}, ${raw[i + 1]!}`;
  }
  return out;
}

/** Go's net.Dial wording for Node's connect errors (what k6's Response.error and error events show). */
export function goDialError(
  err: Error & { code?: string; address?: string; port?: number },
  url: URL,
): string {
  const host = `${url.hostname.replace(/^\[|\]$/g, '')}:${url.port || (url.protocol === 'wss:' ? 443 : 80)}`;
  switch (err.code) {
    case 'ECONNREFUSED':
      return `dial tcp ${host}: connect: connection refused`;
    case 'ENOTFOUND':
      return `dial tcp: lookup ${url.hostname}: no such host`;
    case 'ECONNRESET':
      return `read tcp ${host}: read: connection reset by peer`;
    default:
      return err.message;
  }
}

export function hostSocket(call: WsOpenCall): void {
  const { port } = call;
  const wake = call.wake ? new Int32Array(call.wake.buffer) : undefined;
  const post = (ev: HostEvent) => {
    port.postMessage(ev);
    if (wake) {
      Atomics.add(wake, call.wake!.index, 1);
      Atomics.notify(wake, call.wake!.index);
    }
  };
  const start = Date.now();
  const t0 = performance.now();
  const url = new URL(call.url);
  let socket: Socket | undefined;
  let opened = false;
  let done = false;
  const ws = new WebSocket(call.url, call.protocols, {
    headers: call.headers,
    perMessageDeflate: call.compression,
    handshakeTimeout: HANDSHAKE_TIMEOUT_MS,
    followRedirects: false,
  });
  ws.binaryType = 'arraybuffer';
  let upgrade: IncomingMessage | undefined;
  ws.on('upgrade', (res) => {
    upgrade = res;
    socket = res.socket;
  });
  ws.on('open', () => {
    opened = true;
    post({
      e: 'open',
      status: upgrade?.statusCode ?? 101,
      headers: upgrade ? headersOf(upgrade) : {},
      setCookies: upgrade?.headers['set-cookie'] ?? [],
      protocol: ws.protocol,
      extensions: ws.extensions ? [ws.extensions] : [],
      start,
      connectingMs: performance.now() - t0,
    });
  });
  ws.on('unexpected-response', (_req, res) => {
    const chunks: Buffer[] = [];
    res.on('data', (c: Buffer) => chunks.push(c));
    res.on('end', () => {
      finish({
        e: 'failed',
        error: 'websocket: bad handshake',
        start,
        connectingMs: performance.now() - t0,
        status: res.statusCode ?? 0,
        headers: headersOf(res),
        body: Buffer.concat(chunks).toString('utf8'),
      });
      ws.terminate();
    });
  });
  ws.on('message', (data: ArrayBuffer | string, isBinary: boolean) => {
    const payload = isBinary ? data : Buffer.from(data as ArrayBuffer).toString('utf8');
    post({ e: 'message', data: payload, time: Date.now() });
  });
  ws.on('ping', () => post({ e: 'ping' }));
  ws.on('pong', (data: Buffer) => post({ e: 'pong', id: data.toString('utf8'), time: Date.now() }));
  ws.on('error', (err: Error & { code?: string }) => {
    if (!opened) {
      finish({ e: 'failed', error: goDialError(err, url), start, connectingMs: performance.now() - t0 });
    } else if (!done) post({ e: 'error', message: err.message });
  });
  ws.on('close', (code: number, reason: Buffer) => {
    if (!opened) return; // 'failed' said it
    finish({
      e: 'closed',
      code,
      reason: reason.toString('utf8'),
      sent: socket?.bytesWritten ?? 0,
      received: socket?.bytesRead ?? 0,
      time: Date.now(),
    });
  });
  const finish = (ev: HostEvent) => {
    if (done) return;
    done = true;
    post(ev);
    port.close();
  };
  port.on('message', (msg: WorkerCall) => {
    if (done) return;
    try {
      apply(msg);
    } catch (err) {
      // `ws` refuses what Go's client would write anyway (a reserved close code, a frame after
      // close): the script hears of it as an error event, the socket closes.
      post({ e: 'error', message: (err as Error).message });
      ws.terminate();
    }
  });
  const apply = (msg: WorkerCall) => {
    switch (msg.c) {
      case 'send':
        if (ws.readyState === WebSocket.OPEN) ws.send(msg.data, { binary: typeof msg.data !== 'string' });
        return;
      case 'ping':
        if (ws.readyState === WebSocket.OPEN) ws.ping(msg.id);
        return;
      case 'close':
        ws.close(msg.code, msg.reason);
        if (msg.dropAfterMs !== undefined) setTimeout(() => ws.terminate(), msg.dropAfterMs).unref();
        return;
      case 'terminate':
        ws.terminate();
    }
  };
  // The worker went away (terminated VU, test over): nothing must outlive it.
  port.on('close', () => {
    done = true;
    ws.terminate();
  });
}
