// noCookiesReset on real k6 v1.3 and on the runner: whether a cookie the VU's jar took in one
// iteration is still there in the next (fixtures/http-no-cookies-reset.js).
import assert from 'node:assert/strict';
import { logLinesAsync, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';

const FIXTURE = 'runner/modules/fixtures/http-no-cookies-reset.js';

/** [what, flags, K6_* variables] */
const CASES: [string, string[], Record<string, string>][] = [
  ['unset: emptied at each iteration', [], {}],
  ['set in the script: kept', ['-e', 'KEEP=1'], {}],
  ['false in the script: emptied', ['-e', 'KEEP=0'], {}],
  ['K6_NO_COOKIES_RESET=true: kept', [], { K6_NO_COOKIES_RESET: 'true' }],
];

describe('runner/modules k6/http: the cookie jar between iterations, as k6 v1.3 keeps it', function () {
  this.timeout(60_000);
  for (const [what, flags, env] of CASES) {
    it(what, async function () {
      const k6 = realK6OrSkip(this);
      const [expected, actual] = await Promise.all([
        logLinesAsync(k6, FIXTURE, flags, 0, env),
        logLinesAsync(RUNNER, FIXTURE, flags, 0, env),
      ]);
      assert.equal(expected.length, 2, expected.join('\n'));
      assert.deepEqual(actual, expected);
    });
  }
});
