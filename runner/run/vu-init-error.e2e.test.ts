// A VU after VU 0 whose init throws: k6 v1.3 logs the exception with the hint
// "error while initializing VU #N (script exception)" and exits 107 before setup. Both engines.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';

const FIXTURE = fileURLToPath(new URL('./fixtures/vu-init-error.js', import.meta.url));

describe('a VU whose init throws (real k6 beside the runner)', function () {
  this.timeout(240_000);

  for (const vu of [2, 3]) {
    it(`VU #${vu}: the same line, with the VU in its hint, and exit 107 on both engines`, function () {
      const k6 = realK6OrSkip(this);
      const flags = ['-e', `VU_TO_FAIL=${vu}`];
      const expected = logLines(k6, FIXTURE, flags, 107);
      assert.equal(expected.length, 1, expected.join('\n'));
      assert.match(
        expected[0]!,
        new RegExp(`hint="error while initializing VU #${vu} \\(script exception\\)"`),
      );
      assert.deepEqual(logLines(RUNNER, FIXTURE, flags, 107), expected);
    });
  }
});
