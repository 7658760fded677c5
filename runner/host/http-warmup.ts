// One HTTP exchange on the main thread before the VUs' first requests, while their workers start.
// A Node process pays once for the HTTP path's first use: undici's llhttp WebAssembly parser is
// loaded, compiled and instantiated on the first connection (5-20 ms measured here), and undici's
// and the engine's JavaScript is compiled on first call. Go's client has none of this, so k6's
// first request costs what its later ones do; without the warm-up the runner's first request of a
// run was several times k6's (bench/first-request.ts). The exchange goes to a server of its own on
// loopback, through an engine of its own: no sample, no byte count, no cookie of the run sees it.
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { bareRequest, HttpEngine } from './http-engine.js';

const ANSWER = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nok';

let warming: Promise<void> | undefined;

/** Starts the warm-up once per process (LOADLAB_HTTP_WARMUP=0 turns it off, for the benchmark's "before"). */
export function warmHttpPath(): Promise<void> {
  if (process.env.LOADLAB_HTTP_WARMUP === '0') return Promise.resolve();
  warming ??= warmUpExchange().catch(() => {
    // A warm-up that fails (no loopback?) only means the first real request pays as before.
  });
  return warming;
}

/** The exchange itself: a GET and a POST through a throwaway engine to a loopback server of its own. */
export async function warmUpExchange(): Promise<void> {
  const server = createServer((socket) => {
    socket.on('data', (chunk: Buffer) => {
      // One answer per request head (a body, when there is one, arrives with its head here).
      for (let at = chunk.indexOf('\r\n\r\n'); at >= 0; at = chunk.indexOf('\r\n\r\n', at + 4))
        socket.write(ANSWER);
    });
    socket.on('error', () => {});
  });
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  const engine = new HttpEngine();
  try {
    for (const [method, body] of [
      ['GET', null],
      ['POST', 'x'],
    ] as const) {
      await engine.request(bareRequest(method, url, body));
    }
  } finally {
    await engine.close();
    server.close();
  }
}
