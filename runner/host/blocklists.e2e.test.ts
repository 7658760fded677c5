// blockHostnames and blacklistIPs on real k6 v1.3 and on the runner, from the script, K6_* and the
// flags (fixtures/http-blocklists.js): the same requests refused with the same codes and log lines,
// the options shown alike, and the same errors for what k6 refuses in them.
import assert from 'node:assert/strict';
import { startReferenceTarget } from '../../devkit/loadlab-run.js';
import { realK6OrSkip, runLogLines } from '../testing/log-lines.js';

const FIXTURE = 'runner/modules/fixtures/http-blocklists.js';
const SCRIPT_OPTIONS = JSON.stringify({
  blockHostnames: ['*.Blocked.loadlab.test'],
  blacklistIPs: ['127.0.0.3/8'],
});

/** [what, flags, K6_* variables, whether k6 refuses them] */
const CASES: [string, string[], Record<string, string>, boolean][] = [
  ['from the script', ['-e', `OPTIONS=${SCRIPT_OPTIONS}`], {}, false],
  [
    'from K6_*',
    [],
    { K6_BLOCK_HOSTNAMES: '*.blocked.loadlab.test,x.y', K6_BLACKLIST_IPS: '127.0.0.3/32' },
    false,
  ],
  [
    'from the flags',
    ['--block-hostnames', 'a.blocked.loadlab.test', '--blacklist-ip', '127.0.0.0/30'],
    {},
    false,
  ],
  ['none set, K6_* empty', [], { K6_BLOCK_HOSTNAMES: '', K6_BLACKLIST_IPS: '' }, false],
  ['a bad pattern in the script', ['-e', 'OPTIONS={"blockHostnames":["a b"]}'], {}, true],
  ['a bad range in the script', ['-e', 'OPTIONS={"blacklistIPs":["10.0.0.0/33"]}'], {}, true],
  ['a string for a list', ['-e', 'OPTIONS={"blacklistIPs":"10.0.0.0/8"}'], {}, true],
  ['a bad pattern in K6_*', [], { K6_BLOCK_HOSTNAMES: 'a b' }, true],
  ['a bad range in K6_*', [], { K6_BLACKLIST_IPS: 'nope' }, true],
];

describe('runner/host: blockHostnames and blacklistIPs on real k6 and the runner', function () {
  this.timeout(60_000);
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  before(async () => (target = await startReferenceTarget()));
  after(() => target.close());

  for (const [what, flags, env, refused] of CASES) {
    it(`${what}: the same requests refused, or the same error`, async function () {
      realK6OrSkip(this);
      const run = (engine: 'k6' | 'node') =>
        runLogLines(engine, FIXTURE, ['-e', `PORT=${new URL(target.url).port}`, ...flags], env);
      const k6 = await run('k6');
      const runner = await run('node');
      assert.equal(k6.code, refused ? 104 : 0, k6.lines.join('\n'));
      if (!refused) assert.ok(k6.lines.length >= 5, k6.lines.join('\n'));
      assert.deepEqual(runner, k6);
    });
  }
});
