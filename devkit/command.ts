// Run a command to its end and collect what it wrote: the one helper behind tests that run the runner,
// k6, a shell script or a lab command as a child and read its exit code, stdout and stderr. Asynchronous
// (a test's own servers keep answering while it runs, which spawnSync would block) and bounded: a
// command still running after `timeoutMs` is killed, so a hang fails its test instead of the suite.
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { childEnv, nodeScript, startProcess, workingFolder, type ScriptProcess } from './script-process.js';

export interface CommandResult {
  /** The exit code; null when a signal ended it (the timeout's SIGKILL among them). */
  code: number | null;
  /** The signal that ended it, when one did (SIGKILL at the timeout, SIGSEGV of a crash). */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived. */
  output: string;
}

export interface CommandOptions {
  /** The whole environment besides PATH (pass `{ ...process.env, ... }` to inherit the test runner's). */
  env?: NodeJS.ProcessEnv;
  /** Working folder; default a new temporary one, removed at the end. */
  cwd?: string;
  /** SIGKILL after this long (default 60 s). */
  timeoutMs?: number;
  /** Run as this user; default this process's. */
  user?: { uid: number; gid: number };
  /** Written to the command's stdin, which is then closed (default: an empty input). */
  input?: string;
  /** Called at each chunk of stdout or stderr: to signal the child once it has printed something. */
  onOutput?: (proc: ScriptProcess) => void;
}

/** How long output may still arrive after the exit (a grandchild can keep the pipes open). */
const DRAIN_MS = 2000;

export async function runCommand(
  command: string,
  args: string[],
  options: CommandOptions = {},
): Promise<CommandResult> {
  const proc = startProcess(command, args, {
    env: options.env,
    cwd: options.cwd,
    killAfterMs: options.timeoutMs ?? 60_000,
    user: options.user,
    stdin: options.input === undefined ? 'ignore' : 'pipe',
  });
  if (options.input !== undefined) {
    // A child that exits without reading its input closes the pipe: that is its answer, not the test's error.
    proc.child.stdin!.on('error', () => {});
    proc.child.stdin!.end(options.input);
  }
  const { onOutput } = options;
  if (onOutput)
    for (const stream of [proc.child.stdout!, proc.child.stderr!]) stream.on('data', () => onOutput(proc));
  const code = await proc.exit;
  let drained: NodeJS.Timeout | undefined;
  await Promise.race([proc.closed, new Promise((r) => (drained = setTimeout(r, DRAIN_MS)))]);
  clearTimeout(drained);
  return {
    code,
    signal: proc.child.signalCode,
    stdout: proc.out(),
    stderr: proc.err(),
    output: proc.output(),
  };
}

/** runCommand for an entry point of the project (`scripts/report-cli.ts`), run with tsx as `npm run` does. */
export function runScript(
  script: string,
  args: string[],
  options: CommandOptions = {},
): Promise<CommandResult> {
  return runCommand(...nodeScript(script, args), options);
}

/** True when `command` is a program on PATH: a test skips with the reason where a tool is missing. */
export function onPath(command: string): boolean {
  return runCommandSync('sh', ['-c', 'command -v "$1"', 'sh', command], { timeoutMs: 10_000 }).code === 0;
}

/** What runCommandSync returns: runCommand's result without `output` (a synchronous child's pipes are read apart). */
export type SyncCommandResult = Omit<CommandResult, 'output'>;

/**
 * runCommand for the few places that cannot wait (a synchronous helper many tests call): same
 * environment rule, temporary folder, kill bound and exit 127 for a command that cannot start. It
 * blocks this process's event loop, so a server the test runs in this process does not answer meanwhile.
 */
export function runCommandSync(
  command: string,
  args: string[],
  options: Omit<CommandOptions, 'onOutput'> = {},
): SyncCommandResult {
  const cwd = workingFolder(options.cwd);
  try {
    const run = spawnSync(command, args, {
      cwd,
      env: childEnv(options.env),
      encoding: 'utf8',
      input: options.input,
      timeout: options.timeoutMs ?? 60_000,
      killSignal: 'SIGKILL',
      // Far above what a test prints: Node's default (1 MiB) would kill a chatty run.
      maxBuffer: 256 * 1024 * 1024,
      ...options.user,
    });
    const started = !run.error || run.pid;
    const stderr = run.stderr ?? '';
    if (!started) return { code: 127, signal: null, stdout: '', stderr: `${stderr}${run.error!.message}\n` };
    return { code: run.status, signal: run.signal, stdout: run.stdout ?? '', stderr };
  } finally {
    if (!options.cwd) rmSync(cwd, { recursive: true, force: true });
  }
}
