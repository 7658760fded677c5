// Files opened in init (open() and k6/experimental/fs) are read once per test: fixtures/init-files.js
// on real k6 and on the runner, its data file rewritten on disk between VU 0's init and the other
// VUs', must log the same lines.
import assert from 'node:assert/strict';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';
import { logLines, realK6OrSkip } from '../testing/log-lines.js';

/** The runner's command, from any folder. */
const RUNNER = [process.execPath, join(REPO, 'bin/loadlab.js')];

const FIXTURE = join(REPO, 'runner/vu/fixtures/init-files.js');
/** How long VUs 1-3 wait in init before opening: the rewrite must land inside it. */
const INIT_WAIT_MS = 3000;

interface Outcome {
  lines: string[];
  rewroteAt: number;
  openedAt: number[];
}

/** Runs the fixture in a fresh folder; rewrites data.txt when VU 0 says it has read it. */
async function runRewriting(command: string[]): Promise<Outcome> {
  const dir = mkdtempSync(join(tmpdir(), 'init-files-'));
  copyFileSync(FIXTURE, join(dir, 'init-files.js'));
  writeFileSync(join(dir, 'data.txt'), 'original\n');
  writeFileSync(join(dir, 'late.txt'), 'late\n');
  let rewroteAt = 0;
  const { code, stderr } = await runCommand(
    command[0]!,
    [...command.slice(1), 'run', '-q', '--summary-mode=disabled', 'init-files.js'],
    {
      cwd: dir,
      env: { HOME: process.env.HOME ?? '/tmp', INIT_WAIT_MS: String(INIT_WAIT_MS) },
      timeoutMs: 120_000,
      onOutput: ({ err }) => {
        if (!rewroteAt && err().includes('VU 0 read data.txt')) {
          writeFileSync(join(dir, 'data.txt'), 'rewritten\n');
          rewroteAt = Date.now();
        }
      },
    },
  ).finally(() => rmSync(dir, { recursive: true, force: true }));
  if (code !== 0) throw new Error(`${command.join(' ')} exited ${code}:\n${stderr}`);
  const lines = stderr
    .split('\n')
    .filter((l) => l.startsWith('time='))
    .map((l) => l.replace(/^time="[^"]*" /, '').replaceAll(dir, '<dir>'));
  const openedAt = lines.flatMap((l) => /opened at (\d+)/.exec(l)?.[1] ?? []).map(Number);
  return { lines: lines.filter((l) => !l.includes('opened at')).sort(), rewroteAt, openedAt };
}

describe('runner/vu files opened in init', () => {
  it('fixtures/init-files.js: read once per test (a file rewritten after VU 0 read it), same lines as real k6', async function () {
    const k6 = realK6OrSkip(this);
    this.timeout(240_000);
    const expected = await runRewriting(k6);
    const actual = await runRewriting(RUNNER);
    for (const [engine, outcome] of [
      ['k6', expected],
      ['runner', actual],
    ] as const) {
      // Otherwise the rewrite came too late to tell a second read from the first.
      assert.equal(outcome.openedAt.length, 3, `${engine}: ${outcome.lines.join('\n')}`);
      for (const at of outcome.openedAt)
        assert.ok(
          outcome.rewroteAt > 0 && at > outcome.rewroteAt,
          `${engine}: a VU opened the file before the rewrite`,
        );
    }
    assert.ok(expected.lines.length >= 7, expected.lines.join('\n'));
    assert.ok(expected.lines.some((l) => l.includes('text original, fs original, binary 3rig')));
    assert.deepEqual(actual.lines, expected.lines);
  });

  for (const fixture of ['open-missing.js', 'open-directory.js']) {
    it(`fixtures/${fixture}: k6's error line and exit code`, function () {
      const k6 = realK6OrSkip(this);
      this.timeout(60_000);
      const script = `runner/vu/fixtures/${fixture}`;
      const expected = logLines(k6, script, [], 107);
      assert.equal(expected.length, 1, expected.join('\n'));
      assert.deepEqual(logLines([process.execPath, 'bin/loadlab.js'], script, [], 107), expected);
    });
  }
});
