// A WebSocket echo server on 127.0.0.1:0 for the tests of k6/ws and k6/experimental/websockets: text
// comes back as text and binary as binary; a few text commands make the server act first, so a
// script can see what k6 does when the other side pings or closes.
import type { IncomingMessage } from 'node:http';
import { WebSocketServer, type WebSocket } from 'ws';

export interface EchoServer {
  /** ws://127.0.0.1:<port> */
  url: string;
  /** Connections accepted so far. */
  readonly accepted: number;
  close(): Promise<void>;
}

/**
 * `ping-me` (server pings), `close-me <code>` (server closes with that code), `drop-me` (the
 * server drops the connection without a close frame), `greet-twice`,
 * `header <name>` (the handshake's header of that name); the rest is echoed. A handshake on
 * `/cookie` is answered with a Set-Cookie.
 */
function onMessage(socket: WebSocket, req: IncomingMessage, data: Buffer, isBinary: boolean): void {
  if (isBinary) return socket.send(data, { binary: true });
  const text = data.toString('utf8');
  if (text.startsWith('header ')) return socket.send(`${text}: ${String(req.headers[text.slice(7)])}`);
  if (text === 'ping-me') return socket.ping('server');
  if (text === 'drop-me') return socket.terminate();
  if (text.startsWith('close-me ')) return socket.close(Number(text.slice(9)), 'asked to');
  if (text === 'greet-twice') {
    socket.send('hello 1');
    return socket.send('hello 2');
  }
  socket.send(text);
}

export async function startEchoServer(): Promise<EchoServer> {
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: 0,
    // `/reject` is refused with 403, so a script sees a failed handshake.
    verifyClient: (info: { req: { url?: string } }, done: (ok: boolean, code?: number) => void) =>
      done(info.req.url !== '/reject', 403),
    // The first subprotocol the client offers is the one chosen.
    handleProtocols: (protocols: Set<string>) => protocols.values().next().value ?? false,
  });
  let accepted = 0;
  // `/cookie` answers the handshake with a cookie, for the jar that sent it.
  server.on('headers', (headers, req) => {
    if (req.url?.startsWith('/cookie')) headers.push('Set-Cookie: fromws=2; Path=/');
  });
  server.on('connection', (socket, req) => {
    accepted++;
    // The path may ask for a first message, so a script sees one before it sends anything.
    if (req.url?.startsWith('/hello')) socket.send('welcome');
    socket.on('message', (data, isBinary) => onMessage(socket, req, data as Buffer, isBinary));
    socket.on('error', () => socket.terminate());
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as { port: number };
  return {
    url: `ws://127.0.0.1:${port}`,
    get accepted() {
      return accepted;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}

// `npx tsx runner/modules/websocket/echo-server.ts` serves until killed (to try scripts by hand).
if (import.meta.url === `file://${process.argv[1]}`) {
  void startEchoServer().then((s) => console.log(s.url));
}
