// `k6/net/grpc` (js/modules/k6/grpc in k6 v1.3): Client (load, loadProtoset, connect with
// reflection, invoke, asyncInvoke, close), Stream (on data/error/end, write, end) and the status
// constants. Messages are encoded and decoded here with the client's descriptors; the network is the
// main thread's (host/grpc-engine.ts): invoke and connect block the VU as http calls do, streams and
// asyncInvoke answer as events that this VU's event loop runs while the iteration waits for them.
import type {
  GrpcAnswer,
  GrpcEvent,
  GrpcOp,
  MetadataPairs,
  UnaryAnswer,
} from '../../bridge/grpc-protocol.js';
import { goError } from '../api/go-error.js';
import { MethodTable, type GrpcMethod, type MethodInfo } from './grpc-descriptors.js';
import { parseDuration } from '@loadlab/k6-format/duration';
import type { Hold } from '../../event-loop/pending-work.js';
import type { VuRuntime } from '../api/runtime.js';

/** grpc-go's codes, as k6 exports them. */
const STATUS = {
  StatusOK: 0,
  StatusCanceled: 1,
  StatusUnknown: 2,
  StatusInvalidArgument: 3,
  StatusDeadlineExceeded: 4,
  StatusNotFound: 5,
  StatusAlreadyExists: 6,
  StatusPermissionDenied: 7,
  StatusResourceExhausted: 8,
  StatusFailedPrecondition: 9,
  StatusAborted: 10,
  StatusOutOfRange: 11,
  StatusUnimplemented: 12,
  StatusInternal: 13,
  StatusUnavailable: 14,
  StatusDataLoss: 15,
  StatusUnauthenticated: 16,
  HealthCheckUnknown: 0,
  HealthCheckServing: 1,
  HealthCheckNotServing: 2,
  HealthCheckServiceUnkown: 3,
} as const;

/** grpc-go's code names, for its error text (`rpc error: code = NotFound desc = ...`). */
const CODE_NAMES = [
  'OK',
  'Canceled',
  'Unknown',
  'InvalidArgument',
  'DeadlineExceeded',
  'NotFound',
  'AlreadyExists',
  'PermissionDenied',
  'ResourceExhausted',
  'FailedPrecondition',
  'Aborted',
  'OutOfRange',
  'Unimplemented',
  'Internal',
  'Unavailable',
  'DataLoss',
  'Unauthenticated',
];

export const GRPC_METRICS = {
  grpc_streams: { type: 'counter', contains: 'default' },
  grpc_streams_msgs_sent: { type: 'counter', contains: 'default' },
  grpc_streams_msgs_received: { type: 'counter', contains: 'default' },
} as const;

const DEFAULT_INVOKE_TIMEOUT_MS = 120_000;
const DEFAULT_CONNECT_TIMEOUT_MS = 60_000;

interface CallParams {
  metadata: MetadataPairs;
  tags: Record<string, string>;
  timeoutMs: number;
  discardResponseMessage: boolean;
}

/** k6's params.go newCallParams: unknown keys are errors. */
function callParams(input: unknown): CallParams {
  const p: CallParams = { metadata: [], tags: {}, timeoutMs: 0, discardResponseMessage: false };
  if (input === undefined || input === null) return p;
  for (const [key, value] of Object.entries(input as Record<string, unknown>)) {
    switch (key) {
      case 'metadata':
        p.metadata = metadataPairs(value, 'metadata');
        break;
      case 'tags':
        for (const [k, v] of Object.entries((value ?? {}) as Record<string, unknown>)) p.tags[k] = String(v);
        break;
      case 'timeout':
        try {
          p.timeoutMs = parseDuration(value, { days: false });
        } catch (err) {
          throw new Error(`invalid timeout value: ${(err as Error).message}`, { cause: err });
        }
        break;
      case 'discardResponseMessage':
        p.discardResponseMessage = Boolean(value);
        break;
      default:
        throw new Error(`unknown param: "${key}"`);
    }
  }
  return p;
}

function metadataPairs(value: unknown, what: string): MetadataPairs {
  const pairs: MetadataPairs = [];
  if (value === undefined || value === null) return pairs;
  if (typeof value !== 'object' || Array.isArray(value)) {
    throw new Error(`invalid ${what} param: must be an object with key-value pairs`);
  }
  for (const [name, v] of Object.entries(value as Record<string, unknown>)) {
    if (name.endsWith('-bin')) {
      // k6 v1.3 wants a Go []byte here, which no script value (not even an ArrayBuffer) exports to.
      throw new Error(`invalid ${what} param: "${name}" value must be binary`);
    } else if (typeof v !== 'string') {
      throw new Error(`invalid ${what} param: "${name}" value must be a string`);
    } else pairs.push([name, v]);
  }
  return pairs;
}

/** Go's %#v of a JavaScript value, for k6's parameter errors. */
function goValue(v: unknown): string {
  return typeof v === 'string' ? JSON.stringify(v) : String(v);
}

function connectOp(
  id: number,
  addr: string,
  input: unknown,
): GrpcOp & { op: 'connect' } & { reflect: boolean; reflectMetadata: MetadataPairs } {
  const op = {
    op: 'connect' as const,
    client: id,
    addr,
    plaintext: false,
    timeoutMs: DEFAULT_CONNECT_TIMEOUT_MS,
    reflect: false,
    reflectMetadata: [] as MetadataPairs,
  } as GrpcOp & { op: 'connect' } & { reflect: boolean; reflectMetadata: MetadataPairs };
  if (input === undefined || input === null) return op;
  const bad = (message: string) => goError(`invalid grpc.connect() parameters: ${message}`);
  for (const [key, v] of Object.entries(input as Record<string, unknown>)) {
    switch (key) {
      case 'plaintext':
      case 'reflect':
        if (typeof v !== 'boolean')
          throw bad(`invalid ${key} value: '${goValue(v)}', it needs to be boolean`);
        if (key === 'plaintext') op.plaintext = v;
        else op.reflect = v;
        break;
      case 'timeout':
        try {
          op.timeoutMs = parseDuration(v, { days: false });
        } catch (err) {
          throw bad(`invalid timeout value: ${(err as Error).message}`);
        }
        break;
      case 'reflectMetadata':
        try {
          op.reflectMetadata = metadataPairs(v, 'reflectMetadata');
        } catch (err) {
          throw bad((err as Error).message);
        }
        break;
      case 'maxReceiveSize':
      case 'maxSendSize':
        if (!Number.isInteger(v))
          throw bad(`invalid ${key} value: '${goValue(v)}', it needs to be an integer`);
        if ((v as number) < 0)
          throw bad(`invalid ${key} value: '${goValue(v)}, it needs to be a positive integer`);
        op[key] = v as number;
        break;
      case 'authority':
        if (typeof v !== 'string')
          throw bad(`invalid authority value: '${goValue(v)}', it needs to be a string`);
        op.authority = v;
        break;
      case 'tls': {
        const tls = (v ?? {}) as { cert?: unknown; key?: unknown; cacerts?: unknown };
        const cacerts =
          tls.cacerts === undefined ? [] : Array.isArray(tls.cacerts) ? tls.cacerts : [tls.cacerts];
        op.tls = {
          cert: tls.cert === undefined ? undefined : String(tls.cert),
          key: tls.key === undefined ? undefined : String(tls.key),
          cacerts: cacerts.map(String),
        };
        break;
      }
      default:
        throw bad(`unknown connect param: "${key}"`);
    }
  }
  return op;
}

/** The method's path as k6 names it: a leading slash added. */
function methodPath(method: unknown): string {
  const name = method === undefined || method === null ? '' : String(method);
  return name === '' || name.startsWith('/') ? name : `/${name}`;
}

/** k6 marshals the request to JSON before protojson reads it: undefined fields drop, dates become strings. */
function asJson(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value));
}

interface ClientState {
  id: number;
  methods: MethodTable;
  addr: string;
  connected: boolean;
  /** Its open streams, told when close() cancels them. */
  streams: Set<() => void>;
}

interface StreamHandlers {
  data: ((message: unknown, meta: { ts: number }) => unknown)[];
  error: ((error: unknown, meta: { ts: number }) => unknown)[];
  end: ((value: object, meta: { ts: number }) => unknown)[];
  status: ((value: unknown, meta: { ts: number }) => unknown)[];
}

export function createGrpcModule(rt: VuRuntime): Record<string, unknown> {
  for (const [name, { type, contains }] of Object.entries(GRPC_METRICS))
    rt.declareMetric(name, type, contains);
  const clients = new WeakMap<object, ClientState>();
  let nextClientId = 1;
  let nextCallId = 1;
  /** Asynchronous calls and streams waiting for their events, by id. */
  const awaiting = new Map<number, (event: GrpcEvent) => void>();
  rt.onGrpcEvent = (event) => {
    const id = event.t === 'unary' ? event.call : event.stream;
    awaiting.get(id)?.(event);
  };

  function sync(op: GrpcOp): GrpcAnswer {
    const answer = rt.grpcSync(op);
    if (!answer.ok) throw goError(answer.error);
    return answer;
  }

  /** The tags of a call's samples: the VU's, the params', then k6's gRPC system tags. */
  function callTags(
    state: ClientState,
    path: string,
    userTags: Record<string, string>,
  ): Record<string, string> {
    const [service, method] = path.slice(1).split('/');
    const tags: Record<string, string> = { ...rt.baseTags(), ...userTags, url: `${state.addr}${path}` };
    tags.service = service ?? '';
    tags.method = method ?? '';
    if (userTags.name === undefined) tags.name = path;
    return tags;
  }

  /** What invoke and asyncInvoke check before calling (k6's buildInvokeRequest), in its order. */
  function prepareUnary(state: ClientState, method: unknown, request: unknown, rawParams: unknown) {
    if (rt.phase === 'init') throw goError('invoking RPC methods in the init context is not supported');
    if (!state.connected) throw goError('no gRPC connection, you must call connect first');
    const path = methodPath(method);
    if (path === '') throw goError('method to invoke cannot be empty');
    const desc = state.methods.get(path);
    if (!desc) throw goError(`method "${path}" not found in file descriptors`);
    let params: CallParams;
    try {
      params = callParams(rawParams);
    } catch (err) {
      throw goError(`invalid GRPC's client.invoke() parameters: ${(err as Error).message}`);
    }
    if (request === undefined || request === null) throw goError('request cannot be nil');
    let message: Uint8Array;
    try {
      message = desc.encode(asJson(request));
    } catch (err) {
      throw goError(`unable to serialise request object to protocol buffer: ${(err as Error).message}`);
    }
    const op: GrpcOp = {
      op: 'unary',
      client: state.id,
      call: nextCallId++,
      path,
      message,
      metadata: params.metadata,
      timeoutMs: params.timeoutMs || DEFAULT_INVOKE_TIMEOUT_MS,
    };
    return { op, desc, params, tags: callTags(state, path, params.tags) };
  }

  /** The Response k6 gives the script, and the call's grpc_req_duration sample. */
  function finishUnary(
    prepared: ReturnType<typeof prepareUnary>,
    answer: UnaryAnswer | { ok: false; error: string; sent: number; received: number },
  ): Record<string, unknown> {
    if (!answer.ok) throw goError(answer.error);
    rt.record(
      'grpc_req_duration',
      'trend',
      'time',
      answer.duration,
      { ...prepared.tags, status: String(answer.status) },
      answer.time,
    );
    let message: unknown = null;
    if (!prepared.params.discardResponseMessage)
      message = prepared.desc.decode(answer.message ?? new Uint8Array());
    const error = answer.status === 0 ? null : { code: answer.status, message: answer.details, details: [] };
    return { message, error, headers: answer.headers, trailers: answer.trailers, status: answer.status };
  }

  class Client {
    constructor() {
      clients.set(this, {
        id: nextClientId++,
        methods: new MethodTable(),
        addr: '',
        connected: false,
        streams: new Set(),
      });
    }

    private get state(): ClientState {
      return clients.get(this)!;
    }

    load(importPaths: unknown, ...files: unknown[]): MethodInfo[] {
      if (rt.phase !== 'init') throw goError('load must be called in the init context');
      const paths = Array.isArray(importPaths) ? importPaths.map(String) : [];
      return this.state.methods.loadProtos(rt.scriptDir, paths, files.map(String));
    }

    loadProtoset(protosetPath: unknown): MethodInfo[] {
      if (rt.phase !== 'init') throw goError('load must be called in the init context');
      return this.state.methods.loadProtoset(rt.scriptDir, String(protosetPath));
    }

    connect(addr: unknown, params?: unknown): boolean {
      if (rt.phase === 'init')
        throw goError('connecting to a gRPC server in the init context is not supported');
      const state = this.state;
      const op = connectOp(state.id, String(addr), params);
      const userAgent = rt.testOptions?.userAgent;
      if (typeof userAgent === 'string') op.userAgent = userAgent;
      state.addr = String(addr);
      sync(op);
      state.connected = true;
      if (op.reflect) {
        const answer = sync({ op: 'reflect', client: state.id, metadata: op.reflectMetadata });
        if ('files' in answer) state.methods.addFiles(answer.files);
      }
      return true;
    }

    invoke(method: unknown, request: unknown, params?: unknown): Record<string, unknown> {
      const prepared = prepareUnary(this.state, method, request, params);
      return finishUnary(prepared, rt.grpcSync(prepared.op) as UnaryAnswer);
    }

    asyncInvoke(method: unknown, request: unknown, params?: unknown): Promise<Record<string, unknown>> {
      let prepared: ReturnType<typeof prepareUnary>;
      try {
        prepared = prepareUnary(this.state, method, request, params);
      } catch (err) {
        // k6 rejects with the Go error itself, which a script prints as its bare message.
        (err as Error).name = '';
        return Promise.reject(err);
      }
      const id = (prepared.op as { call: number }).call;
      return new Promise((resolve, reject) => {
        const hold = rt.pending.hold(() => awaiting.delete(id));
        awaiting.set(id, (event) => {
          if (event.t !== 'unary') return;
          awaiting.delete(id);
          rt.countTraffic(event.answer.sent, event.answer.received);
          hold.run(() => {
            try {
              resolve(finishUnary(prepared, event.answer));
            } catch (err) {
              reject(err);
            }
          });
          hold.release();
        });
        rt.grpcPost(prepared.op);
      });
    }

    /** The standard health service's Check (grpc.health.v1), encoded here: two one-field messages. */
    healthCheck(service?: unknown): { status: number } {
      const state = this.state;
      if (!state.connected) throw goError('no gRPC connection, you must call connect first');
      // k6 reads the argument as a string: a missing one is "undefined", as there.
      const name = Buffer.from(service === null ? '' : String(service));
      if (name.length > 127)
        throw goError('healthCheck: service names over 127 bytes are not supported here');
      const message =
        name.length > 0 ? Buffer.concat([Buffer.from([0x0a, name.length]), name]) : Buffer.alloc(0);
      const answer = sync({
        op: 'unary',
        client: state.id,
        call: nextCallId++,
        path: '/grpc.health.v1.Health/Check',
        message: new Uint8Array(message),
        metadata: [],
        timeoutMs: 0,
      }) as UnaryAnswer;
      // k6's stats handler tags a call it did not make for the script with the VU's tags only.
      rt.record(
        'grpc_req_duration',
        'trend',
        'time',
        answer.duration,
        { ...rt.baseTags(), status: String(answer.status) },
        answer.time,
      );
      if (answer.status !== 0) {
        throw goError(
          `rpc error: code = ${CODE_NAMES[answer.status] ?? answer.status} desc = ${answer.details}`,
        );
      }
      const bytes = answer.message ?? new Uint8Array();
      return { status: bytes[0] === 0x08 ? (bytes[1] ?? 0) : 0 };
    }

    close(): void {
      const state = this.state;
      if (!state.connected) return;
      state.connected = false;
      for (const cancelled of state.streams) cancelled();
      state.streams.clear();
      sync({ op: 'close', client: state.id });
    }
  }

  function Stream(client: unknown, method: unknown, rawParams?: unknown): object {
    const state = client && typeof client === 'object' ? clients.get(client) : undefined;
    if (client === undefined || client === null)
      throw goError("invalid GRPC Stream's client: empty gRPC client");
    if (!state) throw goError("invalid GRPC Stream's client: not a gRPC client");
    if (!state.connected) {
      throw goError("invalid GRPC Stream's client: no gRPC connection, you must call connect first");
    }
    const path = methodPath(method);
    if (path === '') throw goError("invalid GRPC Stream's method: method to invoke cannot be empty");
    const desc = state.methods.get(path);
    if (!desc) throw goError(`invalid GRPC Stream's method: method "${path}" not found in file descriptors`);
    let params: CallParams;
    try {
      params = callParams(rawParams);
    } catch (err) {
      throw goError(`invalid GRPC Stream's parameters: ${(err as Error).message}`);
    }
    return openStream(state, desc, params);
  }

  function openStream(state: ClientState, desc: GrpcMethod, params: CallParams): object {
    const id = nextCallId++;
    const tags = callTags(state, desc.path, params.tags);
    const fields = { streamMethod: desc.path };
    const handlers: StreamHandlers = { data: [], error: [], end: [], status: [] };
    let writing = true;
    let closed = false;
    /** client.close() ended it: k6 reports its own error rather than the transport's. */
    let cancelledByClose = false;
    const onClose = () => (cancelledByClose = true);
    state.streams.add(onClose);
    /** A message of a method without server streaming: grpc-go reads it with the status (see onEvent). */
    let held: { message: Uint8Array; time: number } | undefined;
    const meta = () => ({ ts: Math.floor(Date.now() / 1000) });
    const count = (metric: string, sampleTags: Record<string, string>) =>
      rt.record(metric, 'counter', 'default', 1, { ...sampleTags }, Date.now());

    const warnUnhandled = (code: number, details: string) =>
      rt.log(
        'warn',
        `no handlers for error registered, but an error happened: rpc error: code = ${CODE_NAMES[code] ?? code} desc = ${details}`,
        fields,
      );
    const hold: Hold = rt.pending.hold((interrupted) => {
      awaiting.delete(id);
      if (closed) return;
      closed = true;
      rt.grpcPost({ op: 'cancel', stream: id });
      // k6 ends the VU's context at the end of the test: its open streams fail with the deadline.
      if (interrupted && handlers.error.length === 0) warnUnhandled(4, 'context deadline exceeded');
    });
    const received = (message: Uint8Array, sampleTags: Record<string, string>) => {
      count('grpc_streams_msgs_received', sampleTags);
      const value = desc.decode(message);
      for (const listener of handlers.data) listener(value, meta());
    };
    awaiting.set(id, (event) => {
      if (event.t === 'data') {
        if (!desc.serverStreaming) held = { message: event.message, time: event.time };
        else hold.run(() => received(event.message, tags));
        return;
      }
      if (event.t !== 'status') return;
      awaiting.delete(id);
      state.streams.delete(onClose);
      closed = true;
      writing = false;
      rt.countTraffic(event.sent, event.received);
      const ended = { ...tags, status: String(event.code) };
      rt.record('grpc_req_duration', 'trend', 'time', event.duration, ended, event.time);
      hold.run(() => {
        // grpc-go hands over a unary response only once the call is over, so k6 tags it with the status.
        if (held) received(held.message, ended);
        // Cancelled, and not by this VU's script: the main thread stopped the VU's calls at the end of
        // the test (its interrupt), which k6 sees as its context's deadline (see the hold's stop).
        const interrupted = event.code === 1 && !cancelledByClose;
        if (cancelledByClose || interrupted || event.code !== 0) {
          const code = cancelledByClose ? 2 : interrupted ? 4 : event.code;
          const message = cancelledByClose
            ? 'canceled by client (k6)'
            : interrupted
              ? 'context deadline exceeded'
              : event.details;
          // k6's grpcError: its Go Error() method shows among the keys.
          const error = { code, details: [], message, error: () => `code: ${code}, message: ${message}` };
          if (handlers.error.length === 0) {
            if (!cancelledByClose) warnUnhandled(code, message);
            else
              rt.log('warn', `no handlers for error registered, but an error happened: ${message}`, fields);
          }
          for (const listener of handlers.error) listener(error, meta());
        }
        for (const listener of handlers.end) listener({}, meta());
      });
      hold.release();
    });
    rt.grpcPost({
      op: 'open',
      client: state.id,
      stream: id,
      path: desc.path,
      metadata: params.metadata,
      timeoutMs: params.timeoutMs,
    });
    count('grpc_streams', tags);

    const stream = {};
    const define = (name: string, value: unknown) =>
      Object.defineProperty(stream, name, { value, writable: false, configurable: false, enumerable: true });
    define('on', (event: unknown, handler: unknown) => {
      if (handler === undefined || handler === null) {
        throw goError(`handler for "${String(event)}" event isn't a callable function`);
      }
      if (typeof handler !== 'function') {
        throw new TypeError(
          `could not convert function call parameter 1: could not convert ${String(handler)} to func(sobek.Value, sobek.Value) (sobek.Value, error)`,
        );
      }
      const list = handlers[String(event) as keyof StreamHandlers];
      if (!list)
        rt.log(
          'warn',
          `can't register ${String(event)} event handler: unknown GRPC stream's event type: ${String(event)}`,
          {},
        );
      else list.push(handler as never);
    });
    define('write', (message: unknown) => {
      if (!writing) return;
      if (message === undefined || message === null) {
        rt.log('warn', "can't send empty message", fields);
        return;
      }
      rt.grpcPost({ op: 'write', stream: id, message: desc.encode(asJson(message)) });
      count('grpc_streams_msgs_sent', tags);
    });
    define('end', () => {
      if (!writing) return;
      writing = false;
      rt.grpcPost({ op: 'end', stream: id });
    });
    return stream;
  }

  return { Client, Stream, ...STATUS };
}
