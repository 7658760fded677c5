// noConnectionReuse and noVUConnectionReuse on real k6 v1.3 and on the runner
// (fixtures/http-connection-reuse.js): whether each request reuses the last one's connection, and the
// Connection header the target saw; and how many connections stay open idle under the batch options
// (fixtures/http-idle-connections.js).
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { realK6OrSkip, runLogLines } from '../testing/log-lines.js';

const FIXTURE = 'runner/modules/fixtures/http-connection-reuse.js';
const IDLE_FIXTURE = 'runner/modules/fixtures/http-idle-connections.js';
/**
 * [the script's options, K6_* variables] of each idle-connections case: k6's defaults, then batch and
 * batchPerHost set. Not compared: a batch that runs fewer requests at once than it has, with fewer
 * idle connections kept than that (batch 4, batchPerHost 0): there each request starts as another
 * ends, and whether Go's transport has put that one back yet is a race, which real k6 ran both ways.
 */
const IDLE_CASES: [string, Record<string, string>][] = [
  ['{}', {}],
  ['{"batchPerHost":0}', {}],
  ['{"batch":4,"batchPerHost":3}', {}],
  ['{}', { K6_BATCH_PER_HOST: '0' }],
];

/** [what, flags, K6_* variables] */
const CASES: [string, string[], Record<string, string>][] = [
  ['unset: one connection for the VU', [], {}],
  [
    'in the script: a connection per request, each asked to close',
    ['-e', 'OPTIONS={"noConnectionReuse":true}'],
    {},
  ],
  ['K6_NO_CONNECTION_REUSE=true', [], { K6_NO_CONNECTION_REUSE: 'true' }],
  [
    'noVUConnectionReuse in the script: a connection per iteration',
    ['-e', 'OPTIONS={"noVUConnectionReuse":true}'],
    {},
  ],
  ['K6_NO_VU_CONNECTION_REUSE=true', [], { K6_NO_VU_CONNECTION_REUSE: 'true' }],
  ['--no-vu-connection-reuse', ['--no-vu-connection-reuse'], {}],
  [
    '--no-connection-reuse=false over the script',
    ['--no-connection-reuse=false', '-e', 'OPTIONS={"noConnectionReuse":true}'],
    {},
  ],
];

describe('runner/host: noConnectionReuse and noVUConnectionReuse on real k6 and the runner', function () {
  this.timeout(60_000);
  let server: http.Server;
  let base = '';
  before(async () => {
    server = http.createServer((req, res) => {
      const answer = () => res.end(`${req.socket.remotePort} ${req.headers.connection ?? 'none'}`);
      if (req.url === '/slow') setTimeout(answer, 200);
      else answer();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(() => server.close());

  for (const [what, flags, env] of CASES) {
    it(what, async function () {
      realK6OrSkip(this);
      const run = (engine: 'k6' | 'node') =>
        runLogLines(engine, FIXTURE, ['-e', `BASE=${base}`, ...flags], env);
      const k6 = await run('k6');
      assert.equal(k6.code, 0, k6.lines.join('\n'));
      assert.equal(k6.lines.length, 6, k6.lines.join('\n'));
      assert.deepEqual(await run('node'), k6);
    });
  }

  for (const [options, env] of IDLE_CASES) {
    it(`idle connections kept with options ${options} ${JSON.stringify(env)}`, async function () {
      realK6OrSkip(this);
      const run = (engine: 'k6' | 'node') =>
        runLogLines(engine, IDLE_FIXTURE, ['-e', `BASE=${base}`, '-e', `OPTIONS=${options}`], env);
      const k6 = await run('k6');
      assert.equal(k6.code, 0, k6.lines.join('\n'));
      assert.equal(k6.lines.length, 6, k6.lines.join('\n'));
      assert.deepEqual(await run('node'), k6);
    });
  }
});
