// Shared by end-to-end tests and benchmarks: run `loadlab run` (or real k6) as a child process, and a loopback
// target that answers like the throw-away server the reference k6 outputs were recorded against.
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { NO_REAL_K6, realK6 } from './real-k6.js';
import { runCommand, type CommandResult } from './command.js';

export const REPO = fileURLToPath(new URL('../', import.meta.url));

export type RunResult = CommandResult;

export interface RunOptions {
  /** Besides PATH and HOME, the whole environment (pass `{ ...process.env, ... }` to inherit). */
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  timeoutMs?: number;
  /**
   * Ctrl-C this long after the first progress line (`running (…`): timed from the run's start, not the
   * process's, which a loaded machine can delay past any fixed time (a SIGINT before the runner's
   * handler is installed kills it outright).
   */
  interruptOnceRunningMs?: number;
  /**
   * Signals sent once the output first shows `after` (a phase's own console line: setup has no
   * progress line to wait for), the first `delayMs` later (default at once), each next `gapMs`
   * (default 500) after the one before.
   */
  signalsAfter?: { after: string; signals: NodeJS.Signals[]; delayMs?: number; gapMs?: number };
  /** `node` (default): the project's runner; `k6`: the real k6 of realK6(), for the same assertions. */
  engine?: 'node' | 'k6';
  /** The runner's bin/loadlab.js: this checkout's by default, another's for a benchmark's before and after. */
  loadlab?: string;
}

/**
 * The command line of `run` with `args` on an engine: real k6 (realK6()), or the runner's
 * bin/loadlab.js (`loadlab`, default this checkout's) under this Node.
 */
export function engineCommand(
  engine: 'node' | 'k6',
  args: string[],
  { loadlab = `${REPO}bin/loadlab.js` }: { loadlab?: string } = {},
): [command: string, args: string[]] {
  if (engine === 'k6') {
    const k6 = realK6();
    if (!k6) throw new Error(NO_REAL_K6);
    return [k6, ['run', ...args]];
  }
  return [process.execPath, [loadlab, 'run', ...args]];
}

function spawnCollecting(command: string, args: string[], opts: RunOptions): Promise<RunResult> {
  const timers: NodeJS.Timeout[] = [];
  const { interruptOnceRunningMs, signalsAfter } = opts;
  const sendAt = (child: ChildProcess, signal: NodeJS.Signals, ms: number) =>
    timers.push(setTimeout(() => child.kill(signal), ms));
  let sent = false;
  return runCommand(command, args, {
    cwd: opts.cwd ?? REPO,
    env: { HOME: process.env.HOME ?? '/tmp', ...opts.env },
    timeoutMs: opts.timeoutMs,
    // Like a user's Ctrl-C: one SIGINT, then the runner must stop gracefully on its own.
    onOutput:
      interruptOnceRunningMs === undefined && signalsAfter === undefined
        ? undefined
        : ({ out, output, child }) => {
            if (sent) return;
            if (interruptOnceRunningMs !== undefined && out().includes('running (')) {
              sent = true;
              sendAt(child, 'SIGINT', interruptOnceRunningMs);
            } else if (signalsAfter && output().includes(signalsAfter.after)) {
              sent = true;
              const { signals, delayMs = 0, gapMs = 500 } = signalsAfter;
              signals.forEach((s, i) => sendAt(child, s, delayMs + i * gapMs));
            }
          },
  }).finally(() => timers.forEach(clearTimeout));
}

export function runLoadlab(args: string[], opts: RunOptions = {}): Promise<RunResult> {
  return spawnCollecting(...engineCommand(opts.engine ?? 'node', args, opts), opts);
}

let k6BinDir: string | undefined;

/** A folder whose `k6` is the real k6, to put first on PATH for scripts/run-k6.sh. */
function realK6BinDir(): string {
  const k6 = realK6();
  if (!k6) throw new Error(NO_REAL_K6);
  if (!k6BinDir) {
    k6BinDir = mkdtempSync(join(tmpdir(), 'loadlab-real-k6-'));
    if (k6 !== 'k6') symlinkSync(k6, join(k6BinDir, 'k6'));
  }
  return k6BinDir;
}

/**
 * One script through scripts/run-k6.sh as `npm run test:*` runs it, on the engine named
 * (LT_ENGINE): what the user gets, including the browser settings it gives real k6. The script
 * runs in the repository (run-k6.sh goes there), so paths must be absolute: summaries go to
 * LT_RESULTS_DIR. The repository's own .env stays out of it.
 */
export function runThroughRunK6(
  engine: 'node' | 'k6',
  args: string[],
  opts: Omit<RunOptions, 'engine' | 'cwd'> = {},
): Promise<RunResult> {
  const emptyEnvFile = join(mkdtempSync(join(tmpdir(), 'loadlab-env-')), '.env');
  writeFileSync(emptyEnvFile, '');
  const path = process.env.PATH ?? '';
  return spawnCollecting(`${REPO}scripts/run-k6.sh`, args, {
    ...opts,
    env: {
      LT_ENGINE: engine,
      LT_ENV_FILE: emptyEnvFile,
      ...opts.env,
      PATH: engine === 'k6' ? `${realK6BinDir()}:${path}` : path,
    },
  });
}

/**
 * /health, /api/auth/login, /api/users and /web/*.html answer 200; /fail answers 500. For the
 * conformance corpus: /redirect/N redirects N times, then to /health; /cookies/set?k=v sets
 * cookies, /cookies answers the Cookie header it got; /slow?ms=N answers after N ms.
 */
export async function startReferenceTarget(): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const json = (status: number, body: unknown) => {
      res.writeHead(status, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    req.resume();
    req.on('end', () => {
      const query = new URL(req.url ?? '/', 'http://x').searchParams;
      const hops = /^\/redirect\/(\d+)$/.exec(path);
      if (hops) {
        const left = Number(hops[1]);
        res.writeHead(302, { Location: left > 1 ? `/redirect/${left - 1}` : '/health' });
        res.end();
      } else if (path === '/cookies/set') {
        res.setHeader(
          'Set-Cookie',
          [...query].map(([k, v]) => `${k}=${v}; Path=/`),
        );
        json(200, { set: Object.fromEntries(query) });
      } else if (path === '/cookies') json(200, { cookie: req.headers.cookie ?? '' });
      else if (path === '/slow') {
        const timer = setTimeout(
          () => json(200, { slept: Number(query.get('ms')) }),
          Number(query.get('ms')),
        );
        res.once('close', () => clearTimeout(timer));
      } else if (path === '/health') json(200, { status: 'ok' });
      else if (path === '/api/auth/login') json(200, { token: 'reference-token' });
      else if (path === '/api/users')
        json(200, { users: [{ id: 1, name: 'A', email: 'a@x', role: 'admin' }] });
      else if (path.startsWith('/web/')) {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.end('<!doctype html><title>page</title>');
      } else json(path === '/fail' ? 500 : 404, { error: path });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
