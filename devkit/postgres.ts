// Test and benchmark support: a throw-away PostgreSQL cluster (initdb + postgres) in a temporary
// directory, on a free loopback port, trusting local connections only (or, given a password, asking
// for it with SCRAM as a real server does). PostgreSQL refuses to run
// as root, so as root (CI) the cluster belongs to and runs as the `postgres` user (Debian's package
// creates it) or `nobody`.
import { execFileSync, type ChildProcess } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { runCommand } from './command.js';
import { freePort, stopChild } from './processes.js';
import { startProcess, untilReady } from './script-process.js';

/** Where initdb and postgres are: PATH-like places first, then Debian's versioned directories. */
export function findPostgresBin(): string | undefined {
  const debian = existsSync('/usr/lib/postgresql')
    ? readdirSync('/usr/lib/postgresql')
        .sort((a, b) => Number(b) - Number(a))
        .map((v) => `/usr/lib/postgresql/${v}/bin`)
    : [];
  const candidates = [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/local/bin', ...debian];
  return candidates.find((dir) => existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'postgres')));
}

/** The unprivileged account to run as when we are root; undefined when we are not root. */
function runAs(): { uid: number; gid: number } | undefined {
  if (process.getuid?.() !== 0) return undefined;
  for (const user of ['postgres', 'nobody']) {
    try {
      const id = (flag: string) => Number(execFileSync('id', [flag, user], { encoding: 'utf8' }).trim());
      return { uid: id('-u'), gid: id('-g') };
    } catch {
      // no such user: try the next
    }
  }
  throw new Error('running as root and neither a postgres nor a nobody user exists to run PostgreSQL');
}

export interface PgServer {
  url: string;
  /** The postmaster's process id (fault tests stop and continue it and its backends). */
  pid: number;
  stop(): Promise<void>;
}

/** initdb and the like, as `user`, in the caller's environment: resolves on exit 0, else rejects with its stderr. */
async function run(
  command: string,
  args: string[],
  user: { uid: number; gid: number } | undefined,
): Promise<void> {
  const { code, stderr } = await runCommand(command, args, {
    cwd: process.cwd(),
    env: process.env,
    user,
    timeoutMs: 120_000,
  });
  if (code !== 0) throw new Error(`${command} exited with ${code}: ${stderr.slice(-1000).trim()}`);
}

/** `password`: the `clinic` superuser's, required over TCP (SCRAM); without it, connections are trusted. */
export async function startPgServer(bin: string, options: { password?: string } = {}): Promise<PgServer> {
  const user = runAs();
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-pg-'));
  if (user) chownSync(dir, user.uid, user.gid);
  const data = join(dir, 'data');
  let child: ChildProcess | undefined;
  try {
    const auth = ['--auth=trust'];
    if (options.password !== undefined) {
      const file = join(dir, 'password');
      writeFileSync(file, `${options.password}\n`, { mode: 0o600 });
      if (user) chownSync(file, user.uid, user.gid);
      auth.splice(0, 1, '--auth-local=trust', '--auth-host=scram-sha-256', `--pwfile=${file}`);
    }
    await run(
      join(bin, 'initdb'),
      ['-D', data, '-U', 'clinic', ...auth, '--no-sync', '-E', 'UTF8', '--locale=C'],
      user,
    );
    const port = await freePort();
    // Loopback TCP only; the socket in our own directory (not /var/run/postgresql); no fsync: throw-away data.
    const args = ['-D', data, '-p', String(port), '-k', dir, '-c', 'listen_addresses=127.0.0.1'];
    args.push('-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off');
    const started = startProcess(join(bin, 'postgres'), args, {
      cwd: process.cwd(),
      env: process.env,
      user,
      keepLastChars: 1000,
    });
    child = started.child;
    const secret = options.password === undefined ? '' : `:${encodeURIComponent(options.password)}`;
    const url = `postgresql://clinic${secret}@127.0.0.1:${port}/postgres`;
    await untilReady(
      started,
      'postgres to accept connections',
      async () => {
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        await client.end();
        return true;
      },
      30_000,
      300,
    );
    return {
      url,
      pid: started.child.pid!,
      stop: async () => {
        await stopChild(started.child);
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    if (child) await stopChild(child);
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}
