// Which connection a VU's request goes out on, as Go's http.Transport (k6's, one per VU) picks it:
// the connection to the origin that went idle last, else a new one. A connection is idle from the
// moment its answer has been read; at most maxIdlePerHost of them per origin and maxIdle in all stay
// open (k6 sets Go's MaxIdleConnsPerHost and MaxIdleConns to batchPerHost and batch), the others close.
// undici's Pool picks differently: it takes a connection whose answer just ended only after its next
// event-loop turn, so a request made at once (the next of a batch, a fast VU's next) dialled a
// connection k6 would not have, and it keeps every connection it ever opened.
import { createRequire } from 'node:module';
import type { Socket } from 'node:net';
import type { buildConnector, Client as UndiciClient } from 'undici';
import { K6_BATCH_DEFAULTS } from '../bridge/protocol.js';

/** undici's Client file alone, as http-engine.ts loads its Agent (the index loads all of undici). */
const Client = createRequire(import.meta.url)('undici/lib/dispatcher/client.js') as typeof UndiciClient;

/** Go's Transport defaults for a zero MaxIdleConnsPerHost (DefaultMaxIdleConnsPerHost). */
const GO_DEFAULT_MAX_IDLE_PER_HOST = 2;

export interface IdleLimits {
  /** Go's MaxIdleConns: 0 is no limit. */
  maxIdle: number;
  /** Go's MaxIdleConnsPerHost: 0 is Go's default, 2. */
  maxIdlePerHost: number;
}

/** k6's defaults: its batch and batchPerHost defaults. */
export const K6_IDLE_LIMITS: IdleLimits = {
  maxIdle: K6_BATCH_DEFAULTS[0],
  maxIdlePerHost: K6_BATCH_DEFAULTS[1],
};

/** One connection: an undici Client dispatched one request at a time, and the socket it holds now. */
export interface Connection {
  readonly origin: string;
  readonly client: UndiciClient;
  socket: Socket | undefined;
}

export type ClientOptions = Omit<UndiciClient.Options, 'connect'>;
type Dial = (options: buildConnector.Options, callback: buildConnector.Callback) => void;

export class GoConnectionPool {
  /** Idle connections per origin, the one that went idle last at the end. */
  private readonly idleByOrigin = new Map<string, Connection[]>();
  /** Every idle connection, the one idle longest first (Go's idleLRU). */
  private readonly idleOrder = new Set<Connection>();
  private readonly all = new Set<Connection>();

  constructor(
    private readonly clientOptions: ClientOptions,
    private readonly dial: Dial,
    private readonly limits: IdleLimits = K6_IDLE_LIMITS,
  ) {}

  /** The connection a request to `origin` goes out on: the last to go idle that is still open, or a new one. */
  take(origin: string): Connection {
    const idle = this.idleByOrigin.get(origin);
    while (idle?.length) {
      const connection = idle.pop()!;
      this.idleOrder.delete(connection);
      if (isOpen(connection)) return connection;
      this.discard(connection, 'now');
    }
    return this.open(origin);
  }

  /**
   * The request on `connection` has ended: with its answer read whole, the connection goes idle
   * under the limits; 'close' (noConnectionReuse) closes it once its answer is in; after an error it
   * is destroyed, as Go closes a connection whose round trip failed.
   */
  putBack(connection: Connection, outcome: 'read' | 'close' | 'failed'): void {
    if (outcome === 'failed') {
      this.discard(connection, 'now');
      return;
    }
    const idle = this.idleByOrigin.get(connection.origin) ?? [];
    const perHost = this.limits.maxIdlePerHost || GO_DEFAULT_MAX_IDLE_PER_HOST;
    if (outcome === 'close' || !isOpen(connection) || idle.length >= perHost) {
      this.discard(connection);
      return;
    }
    idle.push(connection);
    this.idleByOrigin.set(connection.origin, idle);
    this.idleOrder.add(connection);
    if (this.limits.maxIdle !== 0 && this.idleOrder.size > this.limits.maxIdle) {
      const oldest = this.idleOrder.values().next().value!;
      this.idleOrder.delete(oldest);
      const list = this.idleByOrigin.get(oldest.origin)!;
      list.splice(list.indexOf(oldest), 1);
      this.discard(oldest);
    }
  }

  async destroy(): Promise<void> {
    const clients = [...this.all].map((c) => c.client);
    this.all.clear();
    this.idleByOrigin.clear();
    this.idleOrder.clear();
    await Promise.all(clients.map((c) => c.destroy()));
  }

  private open(origin: string): Connection {
    const connection: { origin: string; client?: UndiciClient; socket: Socket | undefined } = {
      origin,
      socket: undefined,
    };
    connection.client = new Client(origin, {
      ...this.clientOptions,
      connect: (options, callback) =>
        this.dial(options, (...result) => {
          connection.socket = result[1] ?? undefined;
          callback(...result);
        }),
    });
    this.all.add(connection as Connection);
    return connection as Connection;
  }

  /** Closes the connection once its request is through (from inside undici's own callbacks), or at once. */
  private discard(connection: Connection, when: 'after' | 'now' = 'after'): void {
    this.all.delete(connection);
    const closing = when === 'now' ? connection.client.destroy() : connection.client.close();
    void closing.catch(() => {});
  }
}

/** Not yet dialled (its first request dials), or its socket still open: a closed one Go would have dropped. */
function isOpen(connection: Connection): boolean {
  return connection.socket === undefined || !connection.socket.destroyed;
}
