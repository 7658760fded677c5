// The progress display on real k6 and on the runner, side by side: the block each prints last (after
// the summary) must match line for line once times, counts and rates are masked, which differ by
// nature between two runs.
import assert from 'node:assert/strict';
import { realK6OrSkip, RUNNER } from '../testing/log-lines.js';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';

const SCRIPT = 'runner/run/fixtures/progress-executors.js';

/** stdout of a run of the fixture (a pipe here: k6's compact bars). */
async function stdoutOf(command: string[]): Promise<string> {
  const run = await runCommand(command[0]!, [...command.slice(1), 'run', '--summary-mode=disabled', SCRIPT], {
    cwd: REPO,
    env: { HOME: process.env.HOME ?? '/tmp' },
  });
  assert.equal(run.code, 0, run.stderr);
  return run.stdout;
}

/** The last progress block. */
function lastBlock(stdout: string): string[] {
  const lines = stdout.split('\n');
  const start = lines.map((l) => l.startsWith('running (')).lastIndexOf(true);
  assert.ok(start >= 0, stdout);
  return lines.slice(start).filter((l) => l !== '');
}

/**
 * Digits become 9 and percentages P, so that widths, words, marks and layout are what is compared.
 * The run line's iteration counts are not padded: their width is how many iterations the machine's
 * load let the engine finish (k6 finished 99 where it finishes about 105 idle), so they become N.
 */
const masked = (line: string) =>
  line
    .replace(/\d+ complete and \d+ interrupted/, 'N complete and N interrupted')
    .replace(/\[ *\d+% \]/, '[ P% ]')
    .replace(/\d/g, '9');

describe('runner/run/progress: the last block on both engines', function () {
  this.timeout(60_000);

  it('every executor, one cut short and one with a startTime, in the same order and layout', async function () {
    const k6 = realK6OrSkip(this);
    const k6Out = await stdoutOf(k6);
    const runnerOut = await stdoutOf(RUNNER);
    const [k6Block, runnerBlock] = [lastBlock(k6Out), lastBlock(runnerOut)];
    assert.deepEqual(runnerBlock.map(masked), k6Block.map(masked));
    // Unmasked, each bar's name (long ones cut as k6 cuts them) and status mark.
    const nameAndMark = (block: string[]) => block.slice(1).map((line) => line.slice(0, line.indexOf('[')));
    assert.deepEqual(nameAndMark(runnerBlock), nameAndMark(k6Block));
    assert.match(
      runnerBlock.find((l) => l.startsWith('cut'))!,
      /^cut +✗ /,
    );
    // The banner's totals: `cut` ends when `a-scenario-...` starts, so k6 counts 14 VUs, not 15.
    const totals = (out: string) => out.split('\n').find((l) => l.startsWith('     scenarios: '));
    assert.equal(totals(runnerOut), totals(k6Out));
    assert.match(totals(k6Out)!, / 14 max VUs, 10m31s max duration/);
  });
});
