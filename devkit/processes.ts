// Child-process plumbing shared by the local InfluxDB/Prometheus launchers and the tests: free loopback
// ports, polling until something is ready, a stop that waits for the exit, and what a started daemon is.
import type { ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';

/** Asks the kernel for a free loopback port (for daemons that cannot listen on port 0 and report it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Sends SIGTERM and resolves once the child has exited (at once if it already has). */
export function stopChild(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/**
 * Polls `probe` until it returns a value, or rejects naming `what`. Errors count as "not yet", except
 * those `isFatal` picks (a process that died will not come up), which reject at once.
 */
export async function pollUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  isFatal: (error: unknown) => boolean = () => false,
  intervalMs = 300,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    let value: T | undefined;
    try {
      value = await probe();
    } catch (error) {
      if (isFatal(error)) throw error;
    }
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

export interface Daemon {
  name: string;
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}
