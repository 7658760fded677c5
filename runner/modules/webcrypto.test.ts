// WebCrypto where k6 v1.3 shows its own: fixtures/webcrypto.js logged line for line on real k6 and the runner.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../e2e/log-lines.js';

describe('runner/modules WebCrypto (crypto.subtle)', () => {
  it('fixtures/webcrypto.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    this.timeout(120_000);
    const script = 'runner/modules/fixtures/webcrypto.js';
    const expected = logLines(k6, script);
    assert.equal(expected.length, 28, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script), expected);
  });
});
