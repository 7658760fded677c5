// What crosses between a VU worker and the main thread for k6/net/grpc. The worker encodes and
// decodes protobuf messages (its loaded descriptors); the main thread only moves bytes, so it needs
// no descriptors and does no per-message work beyond the network.

/** Metadata as name/value pairs (a name may repeat); `-bin` values are base64 on the wire. */
export type MetadataPairs = [string, string][];

export interface GrpcConnectOp {
  op: 'connect';
  client: number;
  addr: string;
  plaintext: boolean;
  timeoutMs: number;
  authority?: string;
  maxReceiveSize?: number;
  maxSendSize?: number;
  tls?: { cert?: string; key?: string; cacerts?: string[] };
  userAgent?: string;
}

export type GrpcOp =
  | GrpcConnectOp
  /** The server reflection protocol (v1, then v1alpha): every file descriptor its services need. */
  | { op: 'reflect'; client: number; metadata: MetadataPairs }
  /** A unary call; `call` names it in the 'unary' event when it was posted asynchronously. */
  | {
      op: 'unary';
      client: number;
      call: number;
      path: string;
      message: Uint8Array;
      metadata: MetadataPairs;
      timeoutMs: number;
    }
  | { op: 'open'; client: number; stream: number; path: string; metadata: MetadataPairs; timeoutMs: number }
  | { op: 'write'; stream: number; message: Uint8Array }
  | { op: 'end'; stream: number }
  | { op: 'cancel'; stream: number }
  | { op: 'close'; client: number };

/** Socket bytes since the VU's last report: k6 counts a VU's gRPC traffic in data_sent/data_received. */
export interface Traffic {
  sent: number;
  received: number;
}

export interface UnaryAnswer extends Traffic {
  ok: true;
  status: number;
  details: string;
  headers: Record<string, string[]>;
  trailers: Record<string, string[]>;
  /** The response message's bytes (null when the call failed). */
  message: Uint8Array | null;
  /** Epoch ms at the end of the call, and its duration in ms. */
  time: number;
  duration: number;
}

export type GrpcAnswer =
  | (Traffic & { ok: true })
  | (Traffic & { ok: true; files: Uint8Array[] })
  | UnaryAnswer
  | (Traffic & { ok: false; error: string });

/** What the main thread posts to the worker on its own for asynchronous calls and streams. */
export type GrpcEvent =
  | { t: 'unary'; call: number; answer: UnaryAnswer | (Traffic & { ok: false; error: string }) }
  | { t: 'data'; stream: number; message: Uint8Array; time: number }
  | ({
      t: 'status';
      stream: number;
      code: number;
      details: string;
      time: number;
      duration: number;
    } & Traffic);
