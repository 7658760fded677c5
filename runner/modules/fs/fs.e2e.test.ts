// k6/experimental/fs: fixtures/fs.js logged line for line on real k6 and the runner.
import { assertSameLogLines } from '../../testing/log-lines.js';

describe('runner/modules k6/experimental/fs', () => {
  it('fixtures/fs.js logs the same lines on real k6 and on the runner', function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/modules/fixtures/fs.js', 30);
  });

  // k6's documented way to use fs and csv: `await open()` at the top level of the script.
  it('fixtures/fs-top-level-await.js logs the same lines on real k6 and on the runner', function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/modules/fixtures/fs-top-level-await.js', 4);
  });
});
