// Run a command to its end and collect what it wrote: the one helper behind tests that run the runner,
// k6, a shell script or a lab command as a child and read its exit code, stdout and stderr. Asynchronous
// (a test's own servers keep answering while it runs, which spawnSync would block) and bounded: a
// command still running after `timeoutMs` is killed, so a hang fails its test instead of the suite.
import { nodeScript, startProcess, type ScriptProcess } from './script-process.js';

export interface CommandResult {
  /** The exit code; null when a signal ended it (the timeout's SIGKILL among them). */
  code: number | null;
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
  });
  const { onOutput } = options;
  if (onOutput)
    for (const stream of [proc.child.stdout!, proc.child.stderr!]) stream.on('data', () => onOutput(proc));
  const code = await proc.exit;
  let drained: NodeJS.Timeout | undefined;
  await Promise.race([proc.closed, new Promise((r) => (drained = setTimeout(r, DRAIN_MS)))]);
  clearTimeout(drained);
  return { code, stdout: proc.out(), stderr: proc.err(), output: proc.output() };
}

/** runCommand for an entry point of the project (`scripts/report-cli.ts`), run with tsx as `npm run` does. */
export function runScript(
  script: string,
  args: string[],
  options: CommandOptions = {},
): Promise<CommandResult> {
  return runCommand(...nodeScript(script, args), options);
}
