// Promises a script leaves rejected with no handler, on real k6 and on the runner (on each host that
// runs scripts with promises: shared isolates, whose addon hears of them from V8, and workers). k6 logs each as "Uncaught (in promise) …": in an iteration as
// its error (executor and scenario fields, its timers stopped), after setup or teardown as the
// run's last line (exit 255), in handleSummary before the summary is written. The runner had logged
// them late with a console line's fields, or not at all when its VU closed first. k6 picks which of
// two rejections of one iteration it reports by no fixed rule (one run in six named the second), so
// the fixtures leave one each; runner/event-loop/unhandled-rejections.test.ts holds the first.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER, runLogLines } from '../testing/log-lines.js';
import { VU_HOSTS } from '../testing/vu-isolates.js';

const FIXTURES = 'runner/vu/fixtures';

describe('runner/vu: unhandled promise rejections, as k6 reports them', function () {
  this.timeout(180_000);

  for (const [host, env] of VU_HOSTS) {
    describe(`on ${host}`, () => {
      it('in iterations of both kinds of executor: the iteration’s error, timers stopped, the VU going on', function () {
        const k6 = realK6OrSkip(this);
        const script = `${FIXTURES}/unhandled-rejections.js`;
        const expected = logLines(k6, script);
        assert.ok(expected.length >= 20, `${expected.length} lines from k6:\n${expected.join('\n')}`);
        assert.deepEqual(logLines(RUNNER, script, [], 0, env), expected);
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
          assert.deepEqual(logLines(RUNNER, script, [], 255, env), expected);
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
        const runner = await runLogLines('node', script, flags, env);
        const withoutOffsets = (lines: string[]) => lines.map((l) => l.replace(/(:\d+:\d+)\(\d+\)/g, '$1'));
        assert.deepEqual(
          { code: runner.code, lines: runner.lines },
          { code: k6.code, lines: withoutOffsets(k6.lines) },
        );
      });
    });
  }
});
