// One harness for tests that start a long-lived process and wait for it: an entry point of the project
// (`startScript`: `node --import tsx <script>`) or any command (`startProcess`: npm, a shell script, k6),
// in a fresh temporary folder by default (so no developer's .env is read), output collected, the folder
// removed when it exits, an optional bound after which it is killed, and waits until it answers (or
// prints, or a probe says so) that fail at once, with its output, if the process dies first.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
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
  /** stdout and stderr so far, interleaved as they arrived. */
  output(): string;
  /** The exit code (null after a signal), once the process has ended. */
  exit: Promise<number | null>;
  /** Once the process has ended and its stdout and stderr are closed: all its output is in. */
  closed: Promise<number | null>;
  /** SIGTERM (or `signal`), then the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** Why the command could not be started at all (ENOENT, EACCES), if so. */
  startError(): Error | undefined;
  /**
   * How it ended, for an assertion's message: the code or the signal (and whether it was this
   * harness's killAfterMs), the seconds it ran, then the end of its output.
   */
  ending(): string;
}

export interface ScriptOptions {
  /**
   * The whole environment besides PATH: nothing of the test runner's leaks in (pass
   * `{ ...process.env, ... }` to inherit it on purpose). A PATH here replaces the runner's.
   */
  env?: NodeJS.ProcessEnv;
  args?: string[];
  /** Working folder; default a new temporary one, removed on exit. */
  cwd?: string;
  /** SIGKILL after this long, so a hung process cannot outlive its test (default: no bound). */
  killAfterMs?: number;
  /** Run as this user (a daemon that refuses root, such as PostgreSQL); default this process's. */
  user?: { uid: number; gid: number };
  /** Keep only this many of the last characters of each output (default: all). */
  keepLastChars?: number;
  /** `pipe` to talk to the process on `child.stdin`; default none (it reads an empty input). */
  stdin?: 'ignore' | 'pipe';
}

/** The command that runs `script` (a path from the repository root, or absolute) as `npm run` does: node with tsx. */
export function nodeScript(script: string, args: string[] = []): [string, string[]] {
  return [process.execPath, ['--import', TSX, resolve(REPO_ROOT, script), ...args]];
}

/** Starts `script` (a path from the repository root, e.g. `services/sandbox/main.ts`, or absolute). */
export function startScript(script: string, options: ScriptOptions = {}): ScriptProcess {
  return startProcess(...nodeScript(script), options);
}

/**
 * A child's environment: the runner's PATH, TMPDIR and VU host, and what the test gives; nothing else
 * of the runner's.
 */
export function childEnv(env: NodeJS.ProcessEnv | undefined): NodeJS.ProcessEnv {
  // TMPDIR: the test run's own temporary folder (devkit/temp-folder.mocha.ts), removed at its end.
  // LOADLAB_VU_HOST: a test run that asked for the worker host (node-lines on a Node the VU host
  // addon cannot be built for) has every runner it starts use it, instead of each warning that it had to.
  const inherited: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '' };
  for (const name of ['TMPDIR', 'LOADLAB_VU_HOST'])
    if (process.env[name]) inherited[name] = process.env[name];
  return { ...inherited, ...env };
}

/** A child's working folder: `cwd`, or a new temporary one the caller removes when the child ends. */
export function workingFolder(cwd: string | undefined): string {
  return cwd ?? mkdtempSync(join(tmpdir(), 'loadlab-script-'));
}

/** Starts `command` with `args` (options.args are appended) as startScript does a script. */
export function startProcess(command: string, args: string[], options: ScriptOptions = {}): ScriptProcess {
  const cwd = workingFolder(options.cwd);
  const child = spawn(command, [...args, ...(options.args ?? [])], {
    cwd,
    env: childEnv(options.env),
    stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'],
    ...options.user,
  });
  let out = '';
  let err = '';
  let both = '';
  // A daemon that runs for hours keeps only its last words (options.keepLastChars).
  const keep = (text: string) =>
    options.keepLastChars === undefined ? text : text.slice(-options.keepLastChars);
  const collect = (stream: 'out' | 'err', text: string) => {
    if (stream === 'out') out = keep(out + text);
    else err = keep(err + text);
    both = keep(both + text);
  };
  child.stdout!.on('data', (d: Buffer) => collect('out', d.toString()));
  child.stderr!.on('data', (d: Buffer) => collect('err', d.toString()));
  const startedAt = performance.now();
  let endedAt: number | undefined;
  let killedByBound = false;
  const killer =
    options.killAfterMs === undefined
      ? undefined
      : setTimeout(() => {
          killedByBound = true;
          child.kill('SIGKILL');
        }, options.killAfterMs);
  // A command that cannot start (ENOENT) emits 'error' and may never emit 'exit': it ends as exit 127, as a shell says.
  let spawnError: Error | undefined;
  child.once('error', (error) => {
    spawnError = error;
    collect('err', `${error.message}\n`);
  });
  const ended = (event: 'exit' | 'close') =>
    new Promise<number | null>((resolveEnd) => {
      child.once(event, (code) => resolveEnd(code));
      child.once('error', () => resolveEnd(127));
    });
  const exit = ended('exit');
  const closed = ended('close');
  void exit.then(() => {
    endedAt = performance.now();
    clearTimeout(killer);
    if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
  });
  return {
    child,
    out: () => out,
    err: () => err,
    output: () => both,
    exit,
    closed,
    stop(signal = 'SIGTERM') {
      if (!spawnError && child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exit;
    },
    startError: () => spawnError,
    ending() {
      const ran = `${(((endedAt ?? performance.now()) - startedAt) / 1000).toFixed(1)} s`;
      const how =
        endedAt === undefined
          ? `still running after ${ran}`
          : child.signalCode !== null
            ? `ended by ${child.signalCode}${killedByBound ? ` (killAfterMs: ${options.killAfterMs} ms)` : ''} after ${ran}`
            : `exited with code ${child.exitCode ?? 127} after ${ran}`;
      return `${how}; its output ended with:\n${both.slice(-3000)}`;
    },
  };
}

/** Resolves once `url` answers 2xx; rejects with the process's stderr if it exits first or after `timeoutMs`. */
export async function untilHealthy(proc: ScriptProcess, url: string, timeoutMs = 20_000): Promise<void> {
  await untilReady(
    proc,
    `${url} to answer`,
    async () => {
      if (hasExited(proc)) return undefined; // whoever answers now is not this process
      // A slow answer still counts (a service may add latency on purpose): wait for it, within reason.
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) });
      await response.body?.cancel();
      return response.ok ? true : undefined;
    },
    timeoutMs,
  );
}

/** Resolves with the output once `pattern` appears in stdout or stderr; rejects if the process exits first. */
export async function untilOutput(proc: ScriptProcess, pattern: RegExp, timeoutMs = 20_000): Promise<string> {
  return untilReady(
    proc,
    `output matching ${pattern}`,
    async () => {
      const both = proc.out() + proc.err();
      return pattern.test(both) ? both : undefined;
    },
    timeoutMs,
  );
}

/**
 * Polls `probe` (errors count as "not yet") until it returns a value; rejects naming `what` after
 * `timeoutMs`, or at once, with the process's output, if it exits first.
 */
export async function untilReady<T>(
  proc: ScriptProcess,
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 20_000,
  intervalMs = 100,
): Promise<T> {
  return pollUntil(
    what,
    async () => {
      const value = await probe().catch(() => undefined);
      if (value !== undefined) return value;
      if (hasExited(proc)) throw new ExitedEarly(proc);
      return undefined;
    },
    timeoutMs,
    (error) => error instanceof ExitedEarly,
    intervalMs,
  );
}

/** The first whole line of `text`, once there is one: what a server started on port 0 prints to say where it listens. */
export function firstLine(text: string): string | undefined {
  const end = text.indexOf('\n');
  return end < 0 ? undefined : text.slice(0, end).trim();
}

/** Read from the child itself: Node sets its exit code or signal before any 'exit' listener runs. */
const hasExited = (proc: ScriptProcess) =>
  proc.child.exitCode !== null || proc.child.signalCode !== null || proc.startError() !== undefined;

class ExitedEarly extends Error {
  constructor(proc: ScriptProcess) {
    const startError = proc.startError();
    super(
      startError
        ? `could not start: ${startError.message}`
        : `exited (${proc.child.exitCode ?? proc.child.signalCode}) before it was ready: ${(proc.err() || proc.out()).trim().slice(-500)}`,
    );
  }
}
