// http.asyncRequest on real k6 v1.3 and on the runner (fixtures/http-async-request.js): the same log
// lines (requests in flight together, a refused one's warning and rejection, the iteration waiting
// for a request left in flight) on each host that runs asynchronous code, and the same samples and tags.
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { realK6OrSkip, runLogLines } from '../../testing/log-lines.js';
import { REPO } from '../../../devkit/loadlab-run.js';
import { startInfluxCapture, type InfluxCapture } from '../../testing/influx-capture.js';
import { explain, sideBySide } from '../../testing/side-by-side.js';
import { VU_HOSTS } from '../../testing/vu-isolates.js';

const FIXTURE = 'runner/modules/fixtures/http-async-request.js';

describe('runner/modules k6/http: http.asyncRequest, as k6 v1.3', function () {
  this.timeout(120_000);
  let server: http.Server;
  let base = '';
  let influx: InfluxCapture;
  before(async () => {
    // /slow answers after 200 ms: two requests made together are in flight together on k6.
    server = http.createServer((req, res) => {
      const answer = () => res.end(`${req.socket.remotePort}`);
      if (req.url === '/slow') setTimeout(answer, 200);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    influx = await startInfluxCapture();
  });
  after(async () => {
    server.close();
    await influx?.close();
  });

  for (const [host, env] of VU_HOSTS) {
    it(`logs what k6 logs on ${host}: requests in flight together, a refused one warned of or rejected`, async function () {
      realK6OrSkip(this);
      const k6 = await runLogLines('k6', FIXTURE, ['-e', `BASE=${base}`]);
      assert.equal(k6.code, 0, k6.lines.join('\n'));
      assert.ok(
        k6.lines.some((l) => l.includes('together: 200 200, two connections')),
        k6.lines.join('\n'),
      );
      assert.deepEqual(await runLogLines('node', FIXTURE, ['-e', `BASE=${base}`], env), k6);
    });
  }

  it('writes the samples and tags k6 writes', async function () {
    realK6OrSkip(this);
    const { k6, node, differences } = await sideBySide({
      mode: 'plain',
      script: join(REPO, FIXTURE),
      args: ['-q', '-e', `BASE=${base}`],
      influx,
    });
    assert.equal(k6.result.code, 0, k6.result.stderr);
    assert.deepEqual(differences, [], explain(differences, k6, node));
  });
});
