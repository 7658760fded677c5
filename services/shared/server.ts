// Starts an HTTP app and drains it on SIGTERM/SIGINT: stop accepting, finish in-flight
// requests, close idle keep-alive sockets, exit 0.
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from './logger.js';

export interface StartedServer {
  server: Server;
  url: string;
  close(): Promise<void>;
}

export async function listen(app: RequestListener, port: number, host: string): Promise<StartedServer> {
  const server = createServer(app);
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
    server.close(() => {
      clearTimeout(force);
      resolve();
    });
    server.closeIdleConnections();
  });
}

/** Drains every server on the first SIGTERM/SIGINT, then exits 0. */
export function drainOnSignals(servers: Server[], logger: Logger): void {
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'draining in-flight requests');
    Promise.all(servers.map((s) => drain(s))).then(() => {
      logger.info('stopped');
      process.exit(0);
    });
  };
  process.once('SIGTERM', () => stop('SIGTERM'));
  process.once('SIGINT', () => stop('SIGINT'));
}

/** Reads a TCP port from the environment, or exits with one clear line. */
export function portFromEnv(value: string | undefined, fallback: number, name = 'PORT'): number {
  if (value === undefined || value === '') return fallback;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${name} must be an integer from 0 to 65535, got "${value}"`);
  }
  return port;
}
