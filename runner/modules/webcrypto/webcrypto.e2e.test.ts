// WebCrypto where k6 v1.3 shows its own: fixtures/webcrypto.js logged line for line on real k6 and
// the runner, and fixtures/webcrypto-unawaited.js, whose calls' results are logged though the
// script never awaits them.
import assert from 'node:assert/strict';
import { assertSameLogLines, logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';

describe('runner/modules WebCrypto (crypto.subtle)', function () {
  this.timeout(120_000);

  it('fixtures/webcrypto.js logs the same lines on real k6 and on the runner', function () {
    assertSameLogLines(this, 'runner/modules/fixtures/webcrypto.js', 31);
  });

  it('fixtures/webcrypto-unawaited.js: the iteration waits for every call, awaited or not, as k6', function () {
    const k6 = realK6OrSkip(this);
    const script = 'runner/modules/fixtures/webcrypto-unawaited.js';
    // Calls in flight together settle in either order, on both engines.
    const expected = logLines(k6, script).sort();
    assert.equal(expected.filter((l) => /signed \d: 32 bytes/.test(l)).length, 2, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script).sort(), expected);
  });
});
