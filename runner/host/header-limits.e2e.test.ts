// Response headers as large as Go's client takes them (issue 39, row 4): k6 sets no limit of its
// own, so Go's Transport default (10 MiB) holds; undici's 16 KiB default failed 20 KB headers.
// Both engines against one loopback server that answers a header of the size asked.
import assert from 'node:assert/strict';
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { realK6OrSkip, runLogLines } from '../testing/log-lines.js';

/** Header sizes in bytes: over undici's default, over Node's 16 KiB, large, over Go's 10 MiB. */
const SIZES = [20_000, 70_000, 2_000_000, 11_000_000];

async function linesOf(
  engine: 'k6' | 'node',
  base: string,
): Promise<{ code: number | null; lines: string[] }> {
  const run = await runLogLines(engine, 'runner/host/fixtures/header-sizes.js', [
    '-e',
    `BASE=${base}`,
    '-e',
    `SIZES=${SIZES.join(',')}`,
  ]);
  return { code: run.code, lines: run.lines.map((l) => l.replaceAll(new URL(base).port, 'PORT')) };
}

describe('runner/host response header sizes on real k6 and the runner', function () {
  this.timeout(120_000);

  it("takes headers up to Go's 10 MiB and refuses larger ones in Go's words", async function () {
    realK6OrSkip(this);
    const sockets = new Set<Socket>();
    const server = createServer((socket) => {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {});
      socket.once('data', (head) => {
        const size = Number(/^GET \/(\d+)/.exec(head.toString())?.[1] ?? 0);
        socket.end(
          `HTTP/1.1 200 OK\r\nX-Big: ${'a'.repeat(size)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`,
        );
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const k6 = await linesOf('k6', base);
      const runner = await linesOf('node', base);
      assert.equal(k6.code, 0);
      assert.ok(
        k6.lines.some((l) => l.includes('2000000 status=200')),
        k6.lines.join('\n'),
      );
      assert.deepEqual(runner, k6);
    } finally {
      for (const s of sockets) s.destroy();
      server.close();
    }
  });
});
