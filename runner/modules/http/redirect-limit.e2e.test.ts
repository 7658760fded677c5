// k6's redirect limit: a chain longer than the default 10 stops there with k6's
// warning naming the first URL; a limit the script set stops it silently. Both engines, one target.
import { startReferenceTarget } from '../../../devkit/loadlab-run.js';
import { assertSameRunLines, realK6OrSkip } from '../../testing/log-lines.js';

describe('runner/modules k6/http redirect limit on real k6 and the runner', function () {
  this.timeout(60_000);

  it("warns 'Stopped after 11 redirects' only where k6's default limit stopped the chain", async function () {
    realK6OrSkip(this);
    const target = await startReferenceTarget();
    try {
      await assertSameRunLines(
        'runner/modules/fixtures/http-redirect-limit.js',
        ['-e', `BASE=${target.url}`],
        'Stopped after 11 redirects',
        (l) => l.replaceAll(target.url, 'BASE'),
      );
    } finally {
      await target.close();
    }
  });
});
