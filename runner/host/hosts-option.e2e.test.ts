// The hosts option on real k6 v1.3 and on the runner: names, name:port pairs, a wildcard and an IP
// mapped to a loopback target (fixtures/http-hosts.js), shown and dialled the same.
import { startReferenceTarget } from '../../devkit/loadlab-run.js';
import { assertSameRunLines, realK6OrSkip } from '../testing/log-lines.js';

describe('runner/host: the hosts option on real k6 and the runner', function () {
  this.timeout(60_000);

  it('dials each mapped name where the option says, and shows the option as k6 does', async function () {
    realK6OrSkip(this);
    const target = await startReferenceTarget();
    try {
      await assertSameRunLines(
        'runner/modules/fixtures/http-hosts.js',
        ['-e', `PORT=${new URL(target.url).port}`],
        'http://pinned.loadlab.test/health: 200 from 127.0.0.1:PORT',
      );
    } finally {
      await target.close();
    }
  });
});
