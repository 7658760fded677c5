// startDaemon gives up at once, naming the daemon and its last words, when the daemon dies or cannot start.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startDaemon } from './daemon.js';

describe('devkit/daemon', function () {
  this.timeout(30_000);

  for (const [what, command, args, message] of [
    [
      'dies',
      'sh',
      ['-c', 'echo bad config >&2; exit 3'],
      /fake: exited \(3\) before it was ready: bad config$/,
    ],
    ['cannot start', '/nonexistent/loadlab-daemon', [], /fake: could not start: spawn \S+ ENOENT$/],
  ] as const) {
    it(`fails at once when the daemon ${what}`, async () => {
      const started = Date.now();
      const ready = 'http://127.0.0.1:9/ping';
      await assert.rejects(
        startDaemon('fake', command, [...args], ready, ready, { timeoutMs: 15_000 }),
        message,
      );
      assert.ok(Date.now() - started < 5000, `gave up after ${Date.now() - started} ms`);
    });
  }

  it('resolves once the ready URL answers, and stop() ends the daemon', async () => {
    const server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const ready = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
    try {
      const daemon = await startDaemon('sleeper', 'sleep', ['30'], ready, ready);
      assert.equal(daemon.child.exitCode, null);
      await daemon.stop();
      assert.equal(daemon.child.signalCode, 'SIGTERM');
    } finally {
      server.close();
    }
  });
});
