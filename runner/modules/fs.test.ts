// k6/experimental/fs: fixtures/fs.js logged line for line on real k6 and the runner.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../e2e/log-lines.js';

describe('runner/modules k6/experimental/fs', () => {
  it('fixtures/fs.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/fs.js';
    const expected = logLines(k6, script);
    assert.ok(expected.length >= 30, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script), expected);
  });

  it.skip('fixtures/fs-top-level-await.js logs the same lines on real k6 and on the runner', function () {
    // needs top-level await (ES modules)
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/fs-top-level-await.js';
    const expected = logLines(k6, script);
    assert.equal(expected.length, 4, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script), expected);
  });
});
