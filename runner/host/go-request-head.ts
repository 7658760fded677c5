// The request head as Go's net/http client writes it, from the one undici writes. undici always adds
// `connection: keep-alive` (or `close`) after `host:` and puts `content-length:` last; Go sends no
// Connection header, and writes Host, User-Agent, Content-Length, then the other headers sorted by
// their canonical names (Header.WriteSubset). The engine's connector passes every head through this
// on its way to the socket, so servers see k6's header set and order (keep-alive is HTTP/1.1's
// default, so dropping the header keeps the connection reused).
import type { Socket } from 'node:net';
import { canonicalHeaderKey } from '../bridge/go-http.js';

const FIRST = ['Host', 'User-Agent', 'Content-Length', 'Transfer-Encoding'];

/** True for a string that is an HTTP/1.1 request head (undici writes a head as one latin1 string). */
export function isRequestHead(chunk: unknown): chunk is string {
  return typeof chunk === 'string' && chunk.endsWith('\r\n\r\n') && / HTTP\/1\.1\r\n/.test(chunk);
}

/**
 * Rewrites one request head in Go's header order, without the Connection header; with `closing`
 * (noConnectionReuse: Go's DisableKeepAlives), a `Connection: close` last, where Go's transport adds it.
 */
export function goRequestHead(head: string, closing = false): string {
  const lines = head.slice(0, -4).split('\r\n');
  const requestLine = lines[0]!;
  const first: string[][] = FIRST.map(() => []);
  const rest: { name: string; line: string }[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = canonicalHeaderKey(line.slice(0, colon));
    if (name === 'Connection') continue;
    const out = `${name}:${line.slice(colon + 1)}`;
    const at = FIRST.indexOf(name);
    if (at >= 0) first[at]!.push(out);
    else rest.push({ name, line: out });
  }
  // Array.prototype.sort is stable: repeated names keep the order the script gave.
  rest.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const close = closing ? ['Connection: close'] : [];
  return [requestLine, ...first.flat(), ...rest.map((r) => r.line), ...close].join('\r\n') + '\r\n\r\n';
}

/** Makes every request head written to this socket Go's (the socket's own write, wrapped once). */
export function writeGoHeads(socket: Socket, closing = false): void {
  const write = socket.write;
  socket.write = function (this: Socket, chunk: unknown, ...rest: unknown[]) {
    const out = isRequestHead(chunk) ? goRequestHead(chunk, closing) : chunk;
    return (write as (...a: unknown[]) => boolean).call(this, out, ...rest);
  } as typeof socket.write;
}
