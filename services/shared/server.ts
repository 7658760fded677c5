// Starts an HTTP app and drains it on SIGTERM/SIGINT: stop accepting, finish in-flight
// requests, close idle keep-alive sockets, exit 0.
import { STATUS_CODES, createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigError } from './config-error.js';
import type { Logger } from './logger.js';

export interface StartedServer {
  server: Server;
  url: string;
  close(): Promise<void>;
  /** Frees what the app holds besides the server (a database pool), once its requests are done. */
  release?(): Promise<void>;
}

/** Status for a request Node's HTTP parser refused, as Node itself would answer it. */
function clientErrorStatus(code: string | undefined): number {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

/** Requests that are not even valid HTTP never reach the app; answer them with problem+json
 * too (Node's default is an empty 400), unless the peer is gone or a response already started. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  const status = clientErrorStatus(err.code);
  const title = STATUS_CODES[status] ?? 'Bad Request';
  const body = JSON.stringify({
    type: 'about:blank',
    title,
    status,
    detail: 'The request is not valid HTTP/1.1',
  });
  socket.end(
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

export async function listen(app: RequestListener, port: number, host: string): Promise<StartedServer> {
  const server = createServer(app);
  server.on('clientError', answerClientError);
  // Keep-alive longer than typical load-generator pools so idle sockets are not cut mid-run.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `http://${shownHost}:${address.port}`,
    close: () => drain(server),
  };
}

/** Stops accepting connections and resolves once in-flight requests are done. */
export function drain(server: Server, timeoutMs = 10_000): Promise<void> {
  return new Promise((resolve) => {
    const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
    force.unref();
    // A keep-alive connection whose request was in flight turns idle only after its response,
    // and nothing closes it then: sweep idle connections until the server is closed, so the exit
    // follows the last response instead of the force timeout.
    const sweep = setInterval(() => server.closeIdleConnections(), 50);
    sweep.unref();
    server.close(() => {
      clearTimeout(force);
      clearInterval(sweep);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Drains every server on the first SIGTERM/SIGINT, then runs `afterDrain` (closing pools), then exits 0. */
export function drainOnSignals(servers: Server[], logger: Logger, afterDrain?: () => Promise<void>): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    Promise.all(servers.map((s) => drain(s)))
      .then(() => afterDrain?.())
      .then(() => {
        logger.info('stopped');
        process.exit(0);
      });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Reads a TCP port from the environment; a bad value is a ConfigError (one line, exit 2). */
export function portFromEnv(value: string | undefined, fallback: number, name = 'PORT'): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`${name} must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}
