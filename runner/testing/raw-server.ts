// A loopback TCP server that hands each connection to the test as it is (a raw HTTP answer, or
// silence), and closes every connection it accepted when the test is done.
import { createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

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
