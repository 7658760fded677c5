import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitForHealthy } from './wait-healthy.js';

describe('waitForHealthy', () => {
  let server: Server;
  let url: string;
  let calls = 0;

  before(async () => {
    // Unhealthy for the first two polls, as a service still starting would be.
    server = createServer((_req, res) => {
      calls += 1;
      res.statusCode = calls > 2 ? 200 : 503;
      res.end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/health`;
  });
  after(() => new Promise<void>((r) => server.close(() => r())));

  it('waits until the service answers 2xx', async () => {
    await waitForHealthy([url], { timeoutMs: 5000, intervalMs: 10 });
    assert.equal(calls, 3);
  });

  it('names the URL that never became healthy', async () => {
    const closed = 'http://127.0.0.1:1/health';
    await assert.rejects(
      waitForHealthy([url, closed], { timeoutMs: 100, intervalMs: 10 }),
      (e: Error) => e.message.includes(closed) && !e.message.includes(url),
    );
  });
});
