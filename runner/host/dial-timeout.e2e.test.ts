// A TLS handshake that never ends is bounded by the request's timeout, as in k6:
// 1050 `request timeout` at that timeout, where the runner's 10 s connect bound answered 1211.
import { assertSameRunLinesAgainst } from '../testing/raw-server.js';
import { realK6OrSkip } from '../testing/log-lines.js';

describe('runner/host a TLS handshake that hangs, on real k6 and the runner', function () {
  this.timeout(60_000);

  it('fails at the request timeout with 1050', async function () {
    realK6OrSkip(this);
    await assertSameRunLinesAgainst(() => {}, 'runner/host/fixtures/tls-silent.js', 'code=1050', []);
  });
});
