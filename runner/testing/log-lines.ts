// Runs one script on the real k6 and on the runner, for tests that compare what each logs.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, runCommandSync } from '../../devkit/command.js';
import { realK6 } from '../../devkit/real-k6.js';
import { REPO, runLoadlab } from '../../devkit/loadlab-run.js';

/** The runner's command. */
export const RUNNER = [process.execPath, 'bin/loadlab.js'];

/** The real k6's command; the test is skipped with one line where no real k6 is beside the clone. */
export function realK6OrSkip(context: Mocha.Context): string[] {
  const k6 = realK6();
  if (!k6) {
    console.warn('      skipped: no real k6 (../shared/tools/k6 or REAL_K6) beside this clone');
    context.skip();
  }
  return [k6!];
}

/**
 * The log lines of `run -q --summary-mode=disabled <script>` without their time, and without the
 * bytecode offset k6 adds to a stack frame's column (`:19:30(3)`), which a V8 engine has no notion of.
 * The run must exit with `status`.
 */
/** Generous: the fixtures end in seconds, on a loaded 2-core machine in tens of seconds. */
const LOG_RUN_TIMEOUT_MS = 120_000;

export function logLines(
  command: string[],
  script: string,
  flags: string[] = [],
  status = 0,
  /** Added to the bare PATH and HOME the run gets (K6_* options). */
  env: Record<string, string> = {},
): string[] {
  // Synchronous: many tests call this from plain functions; a server the run talks to lives in a child process.
  const run = runCommandSync(command[0]!, logRunArgs(command, script, flags), logRunOptions(env));
  return checkedLogLines(command, script, status, run);
}

/** logLines() without blocking this process: for runs made side by side. */
export async function logLinesAsync(
  command: string[],
  script: string,
  flags: string[] = [],
  status = 0,
  env: Record<string, string> = {},
): Promise<string[]> {
  const run = await runCommand(command[0]!, logRunArgs(command, script, flags), logRunOptions(env));
  return checkedLogLines(command, script, status, run);
}

const logRunArgs = (command: string[], script: string, flags: string[]): string[] => [
  ...command.slice(1),
  'run',
  '-q',
  '--summary-mode=disabled',
  ...flags,
  script,
];

const logRunOptions = (env: Record<string, string>) => ({
  cwd: REPO,
  env: { HOME: process.env.HOME ?? '/tmp', ...env },
  // A run that hangs fails its test in one line instead of holding the suite until CI's limit.
  timeoutMs: LOG_RUN_TIMEOUT_MS,
});

function checkedLogLines(
  command: string[],
  script: string,
  status: number,
  run: { code: number | null; stderr: string },
): string[] {
  if (run.code === null)
    assert.fail(
      `${command.join(' ')} run ${script}: ended by a signal (a run still going after ${LOG_RUN_TIMEOUT_MS / 1000} s is killed)`,
    );
  assert.equal(run.code, status, run.stderr);
  return run.stderr
    .split('\n')
    .filter((line) => line.startsWith('time=') && !line.includes('Error from API server'))
    .map((line) => line.replace(/^time="[^"]*" /, '').replace(/(:\d+:\d+)\(\d+\)/g, '$1'));
}

/**
 * Runs `script` on the real k6 (skipping the test without one) and on the runner, and holds the
 * runner's log lines to k6's; k6 must log at least `minLines`, so a fixture that broke on both
 * engines alike cannot pass.
 */
export function assertSameLogLines(
  context: Mocha.Context,
  script: string,
  minLines: number,
  flags: string[] = [],
): void {
  const k6 = realK6OrSkip(context);
  const expected = logLines(k6, script, flags);
  assert.ok(expected.length >= minLines, `${expected.length} lines from k6:\n${expected.join('\n')}`);
  assert.deepEqual(logLines(RUNNER, script, flags), expected);
}

/**
 * `run -q --summary-mode=disabled <flags> <script>` on either engine without blocking this process
 * (a server the test runs here keeps answering): the exit code and the log lines without their time.
 */
export async function runLogLines(
  engine: 'k6' | 'node',
  script: string,
  flags: string[] = [],
  /** Added to the bare PATH and HOME the run gets (SSL_CERT_FILE). */
  env: Record<string, string> = {},
): Promise<{ code: number | null; lines: string[] }> {
  const run = await runLoadlab(['-q', '--summary-mode=disabled', ...flags, script], {
    engine,
    env,
    timeoutMs: LOG_RUN_TIMEOUT_MS,
  });
  const lines = run.stderr
    .split('\n')
    .filter((line) => line.startsWith('time='))
    .map((line) => line.replace(/^time="[^"]*" /, ''));
  return { code: run.code, lines };
}

/**
 * runLogLines on real k6 and on the runner, k6's exit code 0 and a line containing `k6Shows` (so a
 * fixture broken on both alike cannot pass), and the runner's code and lines equal to k6's.
 * `normalise` rewrites what differs between runs (a port) in both.
 */
export async function assertSameRunLines(
  script: string,
  flags: string[],
  k6Shows: string,
  normalise: (line: string) => string = (l) => l,
): Promise<void> {
  const on = async (engine: 'k6' | 'node') => {
    const run = await runLogLines(engine, script, flags);
    return { code: run.code, lines: run.lines.map(normalise) };
  };
  const k6 = await on('k6');
  const runner = await on('node');
  assert.equal(k6.code, 0, k6.lines.join('\n'));
  assert.ok(
    k6.lines.some((l) => l.includes(k6Shows)),
    k6.lines.join('\n'),
  );
  assert.deepEqual(runner, k6);
}

/**
 * What `script` printed with console.log, in order, run with `-q` and `flags` on `engine` from a
 * temporary folder (removed after); the run must exit 0. `env` besides PATH and HOME, as runLoadlab's.
 */
export async function consoleLinesOf(
  engine: 'k6' | 'node',
  script: string,
  { env, flags = [] }: { env?: NodeJS.ProcessEnv; flags?: string[] } = {},
): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-console-'));
  try {
    writeFileSync(join(dir, 'script.js'), script);
    const run = await runLoadlab(['-q', ...flags, 'script.js'], { engine, cwd: dir, timeoutMs: 50_000, env });
    assert.equal(run.code, 0, run.stderr);
    return [...run.stderr.matchAll(/msg="((?:[^"\\]|\\.)*)" source=console/g)].map((m) => m[1]!);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
