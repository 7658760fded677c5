// A local daemon (InfluxDB, Prometheus) started through the harness and waited for until it answers.
import { stopChild, type Daemon } from './processes.js';
import { startProcess, untilHealthy } from './script-process.js';

/** Starts a daemon and resolves once `readyUrl` answers 2xx; rejects with its output's tail if it dies first. */
export async function startDaemon(
  name: string,
  command: string,
  args: string[],
  url: string,
  readyUrl: string,
  options: { timeoutMs?: number; logTo?: NodeJS.WritableStream } = {},
): Promise<Daemon> {
  // The caller's folder and environment, as the daemon's own command line would have them.
  const proc = startProcess(command, args, { cwd: process.cwd(), env: process.env, keepLastChars: 2000 });
  const { logTo } = options;
  if (logTo)
    for (const stream of [proc.child.stdout!, proc.child.stderr!])
      stream.on('data', (c: Buffer) => logTo.write(c));
  const daemon: Daemon = { name, url, child: proc.child, stop: () => stopChild(proc.child) };
  try {
    await untilHealthy(proc, readyUrl, options.timeoutMs ?? 30_000);
  } catch (error) {
    await daemon.stop();
    throw new Error(`${name}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return daemon;
}
