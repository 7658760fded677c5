// k6/experimental/streams: fixtures/streams.js logged line for line on real k6 and the runner.
import { assertSameLogLines } from '../../testing/log-lines.js';

describe('runner/modules k6/experimental/streams', () => {
  it('fixtures/streams.js logs the same lines on real k6 and on the runner', function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/modules/fixtures/streams.js', 30);
  });
});
