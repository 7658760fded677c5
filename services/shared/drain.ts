// Graceful shutdown of an HTTP/1.1 server under keep-alive load. After the drain begins:
// - every response carries `Connection: close`, so a client never sends another request on a socket
//   the server is about to close (and Node closes the socket once that response is out);
// - the listening socket closes at once (new connections are refused, not reset);
// - a keep-alive socket that was idle is closed only after a grace period: a client may be sending
//   its next request on it right now, and closing then would reset an accepted request. Within the
//   grace every busy client gets one more answer, with `Connection: close`;
// - the drain ends when the last connection has closed, i.e. right after the last response.
// http.Server#close() is not used because since Node 19 it destroys idle sockets at once.
import type { Server, ServerResponse } from 'node:http';
import { Server as NetServer, type Socket } from 'node:net';

/** How long a socket idle when the drain begins may still bring one more request. */
export const IDLE_GRACE_MS = 1000;

interface DrainState {
  draining: boolean;
  /** Open connections; per connection, not per request, so keep-alive traffic pays nothing. */
  sockets: Set<Socket>;
}

const states = new WeakMap<Server, DrainState>();

function stateOf(server: Server): DrainState {
  let state = states.get(server);
  if (state) return state;
  const created: DrainState = { draining: false, sockets: new Set() };
  states.set(server, created);
  server.on('connection', (socket: Socket) => {
    created.sockets.add(socket);
    socket.once('close', () => created.sockets.delete(socket));
  });
  // First listener, so the header is set before the app can send anything.
  server.prependListener('request', (_req, res: ServerResponse) => {
    if (created.draining) res.setHeader('Connection', 'close');
  });
  state = created;
  return state;
}

/** Starts watching connections, so a later drain can mark the responses in flight: call before
 * listening. */
export function prepareDrain(server: Server): void {
  stateOf(server);
}

/** The response a connection is serving now (Node keeps it there; there is no public accessor). */
function currentResponse(socket: Socket): ServerResponse | undefined {
  return (socket as Socket & { _httpMessage?: ServerResponse | null })._httpMessage ?? undefined;
}

/** The response must end the connection: by header when it has not started, else right after it. */
function closeAfter(res: ServerResponse): void {
  if (!res.headersSent) {
    res.setHeader('Connection', 'close');
    return;
  }
  const socket = res.socket;
  res.once('finish', () => socket?.end());
}

/** Stops accepting connections and resolves once every connection has closed (at the latest after
 * `timeoutMs`, when the rest are cut). */
export function drain(server: Server, timeoutMs = 10_000): Promise<void> {
  const state = stateOf(server);
  state.draining = true;
  for (const socket of state.sockets) {
    const res = currentResponse(socket);
    if (res) closeAfter(res);
  }
  return new Promise((resolve) => {
    const timers: NodeJS.Timeout[] = [];
    const later = (ms: number, action: () => void, repeat = false) => {
      const timer = repeat ? setInterval(action, ms) : setTimeout(action, ms);
      timer.unref();
      timers.push(timer);
    };
    // Sockets still idle after the grace close now; later ones are swept as a safety net (every
    // response now closes its own socket, so the sweep should find none).
    later(IDLE_GRACE_MS, () => {
      server.closeIdleConnections();
      later(100, () => server.closeIdleConnections(), true);
    });
    later(timeoutMs, () => server.closeAllConnections());
    NetServer.prototype.close.call(server, () => {
      for (const timer of timers) clearTimeout(timer);
      resolve();
    });
  });
}
