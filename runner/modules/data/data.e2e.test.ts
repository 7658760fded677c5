// k6/data: fixtures/data.js and data-once.js logged line for line on real k6 and the runner.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';

describe('runner/modules k6/data', () => {
  it('fixtures/data.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/data.js';
    const expected = logLines(k6, script);
    assert.ok(expected.length >= 18, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script), expected);
  });

  it("fixtures/data-once.js: a SharedArray's function runs once per test, as on real k6", function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/data-once.js';
    // The VUs log in either order.
    const expected = logLines(k6, script).sort();
    assert.equal(expected.filter((l) => l.includes('making rows')).length, 1, expected.join('\n'));
    assert.equal(expected.length, 4, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script).sort(), expected);
  });
});
