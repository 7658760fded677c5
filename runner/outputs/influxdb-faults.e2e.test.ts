// The built-in InfluxDB output (v1) under a store that fails, in k6's lines: one
// "Couldn't write stats" per failed flush with Go's client error (the answer's body, or the refused
// dial), and k6's warning for a flush slower than the push interval. Both engines, one fake store.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { realK6OrSkip, runLogLines } from '../testing/log-lines.js';

const SCRIPT = 'runner/outputs/fixtures/influxdb-sleepy.js';

/** A store whose /write answers 500 with a body, or 204 after 1.5 s; /query (create database) 200. */
async function fakeStore(mode: '500' | 'slow'): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      if (req.url?.startsWith('/query')) {
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"results":[{}]}');
      } else if (mode === 'slow') {
        const timer = setTimeout(() => res.writeHead(204).end(), 1500);
        res.once('close', () => clearTimeout(timer));
      } else {
        res.writeHead(500, { 'Content-Type': 'application/json' });
        res.end('{"error":"engine: cache-max-memory-size exceeded"}');
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}` };
}

/** Each distinct line once, the store's port and a flush's time made neutral. */
async function distinctLines(engine: 'k6' | 'node', url: string): Promise<string[]> {
  const run = await runLogLines(engine, SCRIPT, ['-o', `influxdb=${url}/k6`]);
  assert.equal(run.code, 0, run.lines.join('\n'));
  const port = new URL(url).port;
  return [
    ...new Set(run.lines.map((l) => l.replaceAll(port, 'PORT').replace(/ t=[\d.]+(m?s)$/, ' t=T'))),
  ].sort();
}

describe('runner/outputs InfluxDB v1 under a failing store, on real k6 and the runner', function () {
  this.timeout(120_000);

  for (const mode of ['500', 'slow'] as const) {
    it(`a store that answers ${mode === '500' ? '500' : 'slower than the push interval'}: k6's lines`, async function () {
      realK6OrSkip(this);
      const { server, url } = await fakeStore(mode);
      try {
        const k6 = await distinctLines('k6', url);
        assert.equal(k6.length, 1, k6.join('\n'));
        assert.deepEqual(await distinctLines('node', url), k6);
      } finally {
        server.closeAllConnections();
        server.close();
      }
    });
  }

  it("a store that refuses connections: k6's line with Go's dial error", async function () {
    realK6OrSkip(this);
    // A port just freed: nothing listens there.
    const { server, url } = await fakeStore('500');
    await new Promise((r) => server.close(r));
    const k6 = await distinctLines('k6', url);
    assert.equal(k6.length, 1, k6.join('\n'));
    assert.deepEqual(await distinctLines('node', url), k6);
  });
});
