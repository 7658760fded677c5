// http.batch's concurrency on real k6 v1.3 and on the runner: k6 keeps at most `batch` requests of a
// batch in flight (20 unless set) and at most `batchPerHost` to one host (6 unless set, 0: no limit).
// A loopback target holds each request 100 ms and counts how many it held at once.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { realK6OrSkip, runLogLines } from '../../testing/log-lines.js';

const FIXTURE = 'runner/modules/fixtures/http-batch-limits.js';

/** [what, flags, K6_* variables, the script's options] */
const CASES: [string, string[], Record<string, string>, Record<string, unknown>][] = [
  ['neither option: 6 per host', [], {}, {}],
  ['batchPerHost 0: no host limit, batch 20', [], {}, { batchPerHost: 0 }],
  ['batch 4 in the script', [], {}, { batch: 4 }],
  ['K6_BATCH and K6_BATCH_PER_HOST', [], { K6_BATCH: '3', K6_BATCH_PER_HOST: '0' }, {}],
  ['--batch-per-host over the script', ['--batch-per-host', '2'], {}, { batchPerHost: 5 }],
  ['--batch over K6_BATCH', ['--batch=9', '--batch-per-host=0'], { K6_BATCH: '3' }, {}],
];

describe('runner/modules k6/http: http.batch under the batch and batchPerHost limits, as k6 v1.3', function () {
  this.timeout(60_000);
  let server: http.Server;
  let base = '';
  before(async () => {
    let held = 0;
    let most = 0;
    server = http.createServer((req, res) => {
      if (req.url === '/most') {
        res.end(String(most));
        most = 0;
        return;
      }
      held += 1;
      most = Math.max(most, held);
      setTimeout(() => {
        held -= 1;
        res.end('held');
      }, 100);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  for (const [what, flags, env, options] of CASES) {
    it(`${what}: as many requests at once`, async function () {
      realK6OrSkip(this);
      const run = (engine: 'k6' | 'node') =>
        runLogLines(
          engine,
          FIXTURE,
          ['-e', `BASE=${base}`, '-e', `OPTIONS=${JSON.stringify(options)}`, ...flags],
          env,
        );
      // One after the other: the target counts for one run at a time.
      const k6 = await run('k6');
      assert.equal(k6.code, 0, k6.lines.join('\n'));
      assert.equal(k6.lines.length, 1, k6.lines.join('\n'));
      assert.deepEqual(await run('node'), k6);
    });
  }
});
