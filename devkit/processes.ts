// Child-process plumbing shared by the local InfluxDB/Prometheus launchers: free loopback ports,
// readiness polling, and a stop that waits for the exit.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { waitForHealthy } from './wait-healthy.js';

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

/** Starts a daemon and resolves once `readyUrl` answers 2xx; rejects with its stderr tail if it dies first. */
export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  url: string,
  readyUrl: string,
  options: { timeoutMs?: number; logTo?: NodeJS.WritableStream } = {},
): Promise<Daemon> {
  const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let tail = '';
  const keepTail = (chunk: Buffer) => {
    tail = (tail + chunk.toString()).slice(-2000);
    options.logTo?.write(chunk);
  };
  child.stdout?.on('data', keepTail);
  child.stderr?.on('data', keepTail);
  const died = new Promise<never>((_, reject) => {
    child.once('error', (error) => reject(new Error(`${name}: ${error.message}`)));
    child.once('exit', (code) =>
      reject(new Error(`${name} exited with code ${code}: ${tail.trim().slice(-500)}`)),
    );
  });
  const daemon: Daemon = {
    name,
    url,
    child,
    stop: () => stopChild(child),
  };
  try {
    await Promise.race([waitForHealthy([readyUrl], { timeoutMs: options.timeoutMs ?? 30_000 }), died]);
  } catch (error) {
    await daemon.stop();
    throw error;
  }
  died.catch(() => undefined); // later exits are the owner's business (stop() or its exit handler)
  return daemon;
}
