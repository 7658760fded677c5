// Promises a script leaves rejected with no handler, on real k6 and on the runner (the worker host:
// scripts with promises run there). k6 logs each as "Uncaught (in promise) …": in an iteration as
// its error (executor and scenario fields, its timers stopped), after setup or teardown as the
// run's last line (exit 255), in handleSummary before the summary is written. The runner had logged
// them late with a console line's fields, or not at all when its VU closed first. k6 picks which of
// two rejections of one iteration it reports by no fixed rule (one run in six named the second), so
// the fixtures leave one each; runner/event-loop/unhandled-rejections.test.ts holds the first.
import assert from 'node:assert/strict';
import { assertSameLogLines, logLines, realK6OrSkip, RUNNER, runLogLines } from '../testing/log-lines.js';

const FIXTURES = 'runner/vu/fixtures';

describe('runner/vu: unhandled promise rejections, as k6 reports them', function () {
  this.timeout(180_000);

  it('in iterations of both kinds of executor: the iteration’s error, timers stopped, the VU going on', function () {
    assertSameLogLines(this, `${FIXTURES}/unhandled-rejections.js`, 20);
  });

  for (const phase of ['setup', 'teardown']) {
    it(`in ${phase}: k6's line last, exit 255`, function () {
      const k6 = realK6OrSkip(this);
      const script = `${FIXTURES}/unhandled-rejection-${phase}.js`;
      const expected = logLines(k6, script, [], 255);
      assert.ok(
        expected.some((line) => line.includes(`Uncaught (in promise) Error: in ${phase}`)),
        expected.join('\n'),
      );
      assert.deepEqual(logLines(RUNNER, script, [], 255), expected);
    });
  }

  it('in handleSummary: k6’s line, then the summary, exit 0', async function () {
    realK6OrSkip(this);
    const script = `${FIXTURES}/unhandled-rejection-summary.js`;
    const flags = ['--summary-mode=compact'];
    const k6 = await runLogLines('k6', script, flags);
    assert.ok(
      k6.lines.some((line) => line.includes('Uncaught (in promise) Error: in handleSummary')),
      k6.lines.join('\n'),
    );
    const runner = await runLogLines('node', script, flags);
    const withoutOffsets = (lines: string[]) => lines.map((l) => l.replace(/(:\d+:\d+)\(\d+\)/g, '$1'));
    assert.deepEqual(
      { code: runner.code, lines: runner.lines },
      { code: k6.code, lines: withoutOffsets(k6.lines) },
    );
  });
});
