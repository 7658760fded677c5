// WebCrypto where k6 v1.3 shows its own: fixtures/webcrypto.js logged line for line on real k6 and the runner.
import { assertSameLogLines } from '../../testing/log-lines.js';

describe('runner/modules WebCrypto (crypto.subtle)', () => {
  it('fixtures/webcrypto.js logs the same lines on real k6 and on the runner', function () {
    this.timeout(120_000);
    assertSameLogLines(this, 'runner/modules/fixtures/webcrypto.js', 31);
  });
});
