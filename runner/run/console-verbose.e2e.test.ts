// console.debug is printed only with -v/--verbose, as in k6 (whose -v adds debug lines of its own:
// only the script's console lines are compared).
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';

const SCRIPT = 'runner/run/fixtures/console-levels.js';
const consoleOnly = (lines: string[]) => lines.filter((line) => line.endsWith('source=console'));

describe('runner -v/--verbose', function () {
  this.timeout(60_000);

  it('without -v the runner drops console.debug; with -v or --verbose it prints it', () => {
    const quiet = consoleOnly(logLines(RUNNER, SCRIPT));
    assert.ok(!quiet.some((line) => line.includes('debug line')), quiet.join('\n'));
    assert.equal(quiet.length, 4);
    for (const flag of ['-v', '--verbose']) {
      assert.ok(
        consoleOnly(logLines(RUNNER, SCRIPT, [flag])).some((line) =>
          line.includes('level=debug msg="debug line"'),
        ),
      );
    }
  });

  it('prints the same console lines as the real k6, with and without -v', function () {
    const k6 = realK6OrSkip(this);
    for (const flags of [[], ['-v']]) {
      assert.deepEqual(
        consoleOnly(logLines(RUNNER, SCRIPT, flags)),
        consoleOnly(logLines(k6, SCRIPT, flags)),
        flags.join(' '),
      );
    }
  });
});
