// A loopback TCP server that hands each connection to the test as it is (a raw HTTP answer, or
// silence), and closes every connection it accepted when the test is done.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { assertSameRunLines } from './log-lines.js';

export async function startRawServer(
  onSocket: (socket: Socket) => void,
): Promise<{ host: string; close(): void }> {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    onSocket(socket);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    host: `127.0.0.1:${(server.address() as AddressInfo).port}`,
    close() {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

/**
 * A raw server answering with `onSocket` for the time of assertSameRunLines on `script` (given the
 * server as `-e BASE=http://host` and `-e HOST=host`), its address made neutral in the lines.
 */
export async function assertSameRunLinesAgainst(
  onSocket: (socket: Socket) => void,
  script: string,
  k6Shows: string,
  flags: string[] = [],
): Promise<void> {
  const server = await startRawServer(onSocket);
  try {
    await assertSameRunLines(
      script,
      ['-e', `BASE=http://${server.host}`, '-e', `HOST=${server.host}`, ...flags],
      k6Shows,
      // The client's own end of a connection (Go names it in a read error) differs every run.
      (l) => l.replaceAll(server.host, 'HOST').replace(/[\d.]+:\d+->/g, 'LOCAL->'),
    );
  } finally {
    server.close();
  }
}
