// One harness for tests that start a project entry point (a service's main.ts, start-services, the
// lab's scripts) as its own process: `node --import tsx <script>` in a fresh temporary folder (so no
// developer's .env is read), output collected, the folder removed when it exits, and a wait until it
// answers that fails at once, with its stderr, if the process dies first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { pollUntil } from './processes.js';

const TSX = import.meta.resolve('tsx');
export const REPO_ROOT = fileURLToPath(new URL('../', import.meta.url));

export interface ScriptProcess {
  child: ChildProcess;
  /** stdout so far. */
  out(): string;
  /** stderr so far. */
  err(): string;
  /** The exit code (null after a signal), once the process has ended. */
  exit: Promise<number | null>;
  /** SIGTERM (or `signal`), then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export interface ScriptOptions {
  /** The whole environment besides PATH: nothing of the test runner's leaks in. */
  env?: Record<string, string>;
  args?: string[];
  /** Working folder; default a new temporary one, removed on exit. */
  cwd?: string;
}

/** Starts `script` (a path from the repository root, e.g. `services/sandbox/main.ts`). */
export function startScript(script: string, options: ScriptOptions = {}): ScriptProcess {
  const cwd = options.cwd ?? mkdtempSync(join(tmpdir(), 'loadlab-script-'));
  const child = spawn(process.execPath, ['--import', TSX, join(REPO_ROOT, script), ...(options.args ?? [])], {
    cwd,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
  const exit = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => {
      if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
      resolve(code);
    }),
  );
  return {
    child,
    out: () => out,
    err: () => err,
    exit,
    stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
  };
}

/** Resolves once `url` answers 2xx; rejects with the process's stderr if it exits first or after `timeoutMs`. */
export async function untilHealthy(proc: ScriptProcess, url: string, timeoutMs = 20_000): Promise<void> {
  await pollUntil(
    `${url} to answer`,
    async () => {
      if (hasExited(proc)) throw new ExitedEarly(proc);
      // A slow answer still counts (a service may add latency on purpose): wait for it, within reason.
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.body?.cancel();
      return response.ok ? true : undefined;
    },
    timeoutMs,
    (error) => error instanceof ExitedEarly,
    100,
  );
}

/** Resolves with the output once `pattern` appears in stdout or stderr; rejects if the process exits first. */
export async function untilOutput(proc: ScriptProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return pollUntil(
    `output matching ${pattern}`,
    async () => {
      const both = proc.out() + proc.err();
      if (pattern.test(both)) return both;
      if (hasExited(proc)) throw new ExitedEarly(proc);
      return undefined;
    },
    timeoutMs,
    (error) => error instanceof ExitedEarly,
    100,
  );
}

/** Read from the child itself: Node sets its exit code or signal before any 'exit' listener runs. */
const hasExited = (proc: ScriptProcess) => proc.child.exitCode !== null || proc.child.signalCode !== null;

class ExitedEarly extends Error {
  constructor(proc: ScriptProcess) {
    super(
      `exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was ready: ${proc.err().trim().slice(-500)}`,
    );
  }
}
