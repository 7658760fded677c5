// One VU's gRPC connections on the main thread (k6/net/grpc), on @grpc/grpc-js: each client's
// channel, its unary calls and streams. Messages arrive and leave as bytes the worker encoded or
// will decode. Each channel has its own subchannel (k6 dials one connection per client), and its
// sockets are found when created (an AsyncLocalStorage tag read by net's diagnostics channel), so
// their byte counts become the VU's data_sent/data_received as k6 counts its dialer's bytes.
import { AsyncLocalStorage } from 'node:async_hooks';
import dc from 'node:diagnostics_channel';
import net from 'node:net';
import * as grpc from '@grpc/grpc-js';
import type {
  GrpcAnswer,
  GrpcConnectOp,
  GrpcEvent,
  GrpcOp,
  MetadataPairs,
  Traffic,
  UnaryAnswer,
} from '../bridge/grpc-protocol.js';
import { measuredMs } from '@loadlab/k6-format/duration';
import { reflectFiles } from './grpc-reflection.js';

interface Connection {
  client: grpc.Client;
  sockets: net.Socket[];
  /** Its calls and streams in flight: cancelled when it closes, so each still ends with a status. */
  calls: Set<grpc.Call>;
}

/** Whose connection a socket being created belongs to. */
const owner = new AsyncLocalStorage<Connection>();
dc.subscribe('net.client.socket', (message) => {
  const conn = owner.getStore();
  if (!conn) return;
  const { socket } = message as { socket: net.Socket };
  // Go dials with TCP_NODELAY, as k6 does; Node waits for ACKs (a bare grpc-js loop: 279 -> 363 calls/s).
  socket.setNoDelay(true);
  conn.sockets.push(socket);
});

const bytesOf = (b: Buffer) => b;

function toMetadata(pairs: MetadataPairs): grpc.Metadata {
  const md = new grpc.Metadata();
  for (const [name, value] of pairs) {
    if (name.endsWith('-bin')) md.add(name, Buffer.from(value, 'base64'));
    else md.add(name, value);
  }
  return md;
}

/** Metadata as k6 shows it: name -> values (binary values as their bytes read as text). */
function fromMetadata(md: grpc.Metadata | undefined): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  if (!md) return out;
  for (const [name, values] of Object.entries(md.toJSON())) {
    out[name] = values.map((v) => (Buffer.isBuffer(v) ? v.toString('latin1') : String(v)));
  }
  return out;
}

/** Go's words for a deadline k6 set, in place of grpc-js's. */
function goDetails(status: grpc.StatusObject): string {
  return status.code === grpc.status.DEADLINE_EXCEEDED ? 'context deadline exceeded' : status.details;
}

/** Why nothing answers at `addr`, in Go's words (k6 fails at once on a refused dial). */
function dialError(addr: string): Promise<string> {
  const at = addr.lastIndexOf(':');
  const host = addr.slice(0, at).replace(/^\[|\]$/g, '');
  const port = Number(addr.slice(at + 1));
  return new Promise((resolve) => {
    const probe = net.connect({ host, port });
    probe.once('connect', () => {
      probe.destroy();
      resolve('connection error: desc = "transport: the server did not answer as a gRPC server"');
    });
    probe.once('error', (err: NodeJS.ErrnoException & { address?: string; port?: number }) => {
      const where = `${err.address ?? host}:${err.port ?? port}`;
      const why =
        err.code === 'ECONNREFUSED'
          ? 'connect: connection refused'
          : err.code === 'ENOTFOUND'
            ? `lookup ${host}: no such host`
            : err.message;
      resolve(`connection error: desc = "transport: error while dialing: dial tcp ${where}: ${why}"`);
    });
  });
}

export class GrpcEngine {
  private readonly connections = new Map<number, Connection>();
  /** Bytes already reported, per connection. */
  private readonly reported = new Map<Connection, Traffic>();
  private readonly streams = new Map<number, grpc.ClientDuplexStream<Buffer, Buffer>>();
  private readonly calls = new Set<grpc.Call>();
  /** Bytes of connections closed since the last report. */
  private leftover: Traffic = { sent: 0, received: 0 };

  constructor(private readonly emit: (event: GrpcEvent) => void) {}

  /** A synchronous operation's answer (connect, reflect, unary, close). */
  async serve(op: GrpcOp): Promise<GrpcAnswer> {
    try {
      switch (op.op) {
        case 'connect':
          return await this.connect(op);
        case 'reflect': {
          const conn = this.connection(op.client);
          const files = await owner.run(conn, () =>
            reflectFiles(conn.client, toMetadata(op.metadata), Date.now() + 60_000),
          );
          return { ok: true, files, ...this.traffic() };
        }
        case 'unary':
          return await this.unary(op.client, op.path, op.message, op.metadata, op.timeoutMs);
        case 'close':
          this.close(op.client);
          return { ok: true, ...this.traffic() };
        default:
          this.post(op);
          return { ok: true, ...this.traffic() };
      }
    } catch (err) {
      return { ok: false, error: (err as Error).message, ...this.traffic() };
    }
  }

  /** An asynchronous operation: its outcome comes back as events. */
  post(op: GrpcOp): void {
    switch (op.op) {
      case 'unary':
        void this.unary(op.client, op.path, op.message, op.metadata, op.timeoutMs).then(
          (answer) => this.emit({ t: 'unary', call: op.call, answer }),
          (err: Error) =>
            this.emit({
              t: 'unary',
              call: op.call,
              answer: { ok: false, error: err.message, ...this.traffic() },
            }),
        );
        return;
      case 'open':
        this.open(op);
        return;
      case 'write':
        this.streams.get(op.stream)?.write(Buffer.from(op.message));
        return;
      case 'end':
        this.streams.get(op.stream)?.end();
        return;
      case 'cancel':
        this.streams.get(op.stream)?.cancel();
        return;
      default:
        void this.serve(op);
    }
  }

  private connection(id: number): Connection {
    const conn = this.connections.get(id);
    if (!conn) throw new Error('no gRPC connection, you must call connect first');
    return conn;
  }

  private async connect(op: GrpcConnectOp): Promise<GrpcAnswer> {
    this.close(op.client);
    const credentials = op.plaintext
      ? grpc.credentials.createInsecure()
      : grpc.credentials.createSsl(
          op.tls?.cacerts?.length ? Buffer.from(op.tls.cacerts.join('\n')) : null,
          op.tls?.key ? Buffer.from(op.tls.key) : null,
          op.tls?.cert ? Buffer.from(op.tls.cert) : null,
        );
    // Own subchannel: one connection per client, as k6 dials. No channelz: nothing reads it here.
    const options: grpc.ClientOptions = { 'grpc.use_local_subchannel_pool': 1, 'grpc.enable_channelz': 0 };
    if (op.authority) options['grpc.default_authority'] = op.authority;
    if (op.maxReceiveSize) options['grpc.max_receive_message_length'] = op.maxReceiveSize;
    if (op.maxSendSize) options['grpc.max_send_message_length'] = op.maxSendSize;
    if (op.userAgent) options['grpc.primary_user_agent'] = op.userAgent;
    const conn: Connection = { client: undefined as unknown as grpc.Client, sockets: [], calls: new Set() };
    conn.client = owner.run(conn, () => new grpc.Client(op.addr, credentials, options));
    const error = await owner.run(conn, () =>
      this.whenReady(conn.client, op.addr, Date.now() + op.timeoutMs),
    );
    if (error) {
      conn.client.close();
      return { ok: false, error, ...this.trafficOf(conn) };
    }
    this.connections.set(op.client, conn);
    return { ok: true, ...this.traffic() };
  }

  /** Waits for the channel to connect (k6's blocking dial): undefined, or k6's error. */
  private whenReady(client: grpc.Client, addr: string, deadline: number): Promise<string | undefined> {
    const channel = client.getChannel();
    return new Promise((resolve) => {
      const check = (): void => {
        const state = channel.getConnectivityState(true);
        if (state === grpc.connectivityState.READY) return resolve(undefined);
        if (state === grpc.connectivityState.TRANSIENT_FAILURE) return void dialError(addr).then(resolve);
        if (state === grpc.connectivityState.SHUTDOWN)
          return resolve('grpc: the client connection is closing');
        channel.watchConnectivityState(state, deadline, (err) =>
          err ? resolve('context deadline exceeded') : check(),
        );
      };
      check();
    });
  }

  private unary(
    id: number,
    path: string,
    message: Uint8Array,
    metadata: MetadataPairs,
    timeoutMs: number,
  ): Promise<UnaryAnswer> {
    const conn = this.connection(id);
    const start = performance.now();
    return new Promise((resolve) => {
      let headers: grpc.Metadata | undefined;
      let body: Buffer | null = null;
      const call = conn.client.makeUnaryRequest(
        path,
        bytesOf,
        bytesOf,
        Buffer.from(message),
        toMetadata(metadata),
        { deadline: timeoutMs > 0 ? Date.now() + timeoutMs : Infinity },
        (err, value) => {
          if (!err && value) body = value;
        },
      );
      this.calls.add(call);
      conn.calls.add(call);
      call.on('metadata', (md: grpc.Metadata) => (headers = md));
      call.on('status', (status: grpc.StatusObject) => {
        this.calls.delete(call);
        conn.calls.delete(call);
        const end = performance.now();
        // A trailers-only answer (an error at once) has no headers: grpc-go shows what came as trailers.
        setImmediate(() =>
          resolve({
            ok: true,
            status: status.code,
            details: goDetails(status),
            headers: fromMetadata(headers),
            trailers: fromMetadata(status.metadata),
            message: body && new Uint8Array(body.buffer, body.byteOffset, body.byteLength),
            time: performance.timeOrigin + end,
            duration: measuredMs(end - start),
            ...this.traffic(),
          }),
        );
      });
    });
  }

  private open(op: Extract<GrpcOp, { op: 'open' }>): void {
    const start = performance.now();
    let conn: Connection;
    try {
      conn = this.connection(op.client);
    } catch (err) {
      this.emit({
        t: 'status',
        stream: op.stream,
        code: grpc.status.UNAVAILABLE,
        details: (err as Error).message,
        time: Date.now(),
        duration: 0,
        ...this.traffic(),
      });
      return;
    }
    const call = conn.client.makeBidiStreamRequest(op.path, bytesOf, bytesOf, toMetadata(op.metadata), {
      deadline: op.timeoutMs > 0 ? Date.now() + op.timeoutMs : Infinity,
    });
    this.streams.set(op.stream, call);
    conn.calls.add(call);
    call.on('data', (message: Buffer) =>
      this.emit({
        t: 'data',
        stream: op.stream,
        message: new Uint8Array(message.buffer, message.byteOffset, message.byteLength),
        time: Date.now(),
      }),
    );
    call.on('error', () => {}); // the status event says it all
    call.on('status', (status: grpc.StatusObject) => {
      this.streams.delete(op.stream);
      conn.calls.delete(call);
      const end = performance.now();
      // After any 'data' still queued in this turn: a stream's messages come before its end.
      setImmediate(() =>
        this.emit({
          t: 'status',
          stream: op.stream,
          code: status.code,
          // A stream's deadline reaches the server (grpc-timeout), whose words k6 shows.
          details: status.code === grpc.status.DEADLINE_EXCEEDED ? 'Deadline exceeded' : status.details,
          time: performance.timeOrigin + end,
          duration: measuredMs(end - start),
          ...this.traffic(),
        }),
      );
    });
  }

  /** Bytes of every connection of this VU since the last report. */
  private traffic(): Traffic {
    const total = this.leftover;
    this.leftover = { sent: 0, received: 0 };
    for (const conn of this.connections.values()) {
      const t = this.trafficOf(conn);
      total.sent += t.sent;
      total.received += t.received;
    }
    return total;
  }

  private trafficOf(conn: Connection): Traffic {
    let sent = 0;
    let received = 0;
    for (const s of conn.sockets) {
      sent += s.bytesWritten;
      received += s.bytesRead;
    }
    const before = this.reported.get(conn) ?? { sent: 0, received: 0 };
    this.reported.set(conn, { sent, received });
    return { sent: sent - before.sent, received: received - before.received };
  }

  close(id: number): void {
    const conn = this.connections.get(id);
    if (!conn) return;
    this.connections.delete(id);
    const t = this.trafficOf(conn);
    this.leftover.sent += t.sent;
    this.leftover.received += t.received;
    this.reported.delete(conn);
    // grpc-js does not always end a call that had not started when its channel closed.
    for (const call of conn.calls) call.cancel();
    conn.client.close();
  }

  /** Stops every call in flight (an interrupted iteration). */
  cancelAll(): void {
    for (const call of this.calls) call.cancel();
    for (const stream of this.streams.values()) stream.cancel();
  }

  closeAll(): void {
    this.cancelAll();
    for (const id of [...this.connections.keys()]) this.close(id);
  }
}
