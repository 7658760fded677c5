// Starts an HTTP app and drains it on SIGTERM/SIGINT (drain.ts): stop accepting, finish in-flight
// requests, close keep-alive sockets without resetting a request, exit 0.
import {
  STATUS_CODES,
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConfigError } from './config-error.js';
import { drain, prepareDrain } from './drain.js';
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

/** A problem detail for answers written below Express, where sendProblem cannot be used. */
function bareProblem(status: number, detail: string): { title: string; body: string } {
  const title = STATUS_CODES[status] ?? 'Bad Request';
  return { title, body: JSON.stringify({ type: 'about:blank', title, status, detail }) };
}

/** A whole response as raw bytes, for sockets that no ServerResponse serves. */
function problemBytes(status: number, detail: string): string {
  const { title, body } = bareProblem(status, detail);
  return (
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
  );
}

/** Requests that are not even valid HTTP never reach the app; answer them with problem+json
 * too (Node's default is an empty 400), unless the peer is gone or a response already started. */
export function answerClientError(err: NodeJS.ErrnoException, socket: Socket): void {
  const current = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || current?.headersSent) {
    socket.destroy();
    return;
  }
  socket.end(problemBytes(clientErrorStatus(err.code), 'The request is not valid HTTP/1.1'));
}

/** Answers Node would give itself with an empty body, as problem+json and closing the connection. */
function answerProblem(res: ServerResponse, status: number, detail: string): void {
  const { body } = bareProblem(status, detail);
  res.writeHead(status, {
    'Content-Type': 'application/problem+json',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  res.end(body);
}

/** The app, behind the checks Node makes before it: an HTTP/1.1 request must name its Host. */
function withHostCheck(app: RequestListener): RequestListener {
  return (req, res) => {
    if (!req.headers.host && req.httpVersion === '1.1') {
      answerProblem(res, 400, 'An HTTP/1.1 request must carry a Host header');
      return;
    }
    app(req, res);
  };
}

export async function listen(app: RequestListener, port: number, host: string): Promise<StartedServer> {
  // Node's own Host check answers an empty 400; withHostCheck answers the same with a body.
  const server = createServer({ requireHostHeader: false }, withHostCheck(app));
  prepareDrain(server);
  server.on('clientError', answerClientError);
  // Without these listeners Node answers an unknown Expect with an empty 417 and drops CONNECT.
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) =>
    answerProblem(res, 417, `Expectation "${String(req.headers.expect)}" is not supported`),
  );
  server.on('connect', (_req: IncomingMessage, socket: Socket) =>
    socket.end(problemBytes(405, 'CONNECT is not supported')),
  );
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

/**
 * Drains every server on the first SIGTERM/SIGINT, then runs `afterDrain` (closing pools), then exits 0.
 * `servers` is read when the signal comes, so it may still grow (install this before listening).
 * Returns whether a signal has come.
 */
export function drainOnSignals(
  servers: Server[],
  logger: Logger,
  afterDrain?: () => Promise<void>,
): () => boolean {
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
  return () => stopping;
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
