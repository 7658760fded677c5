// The Blob k6/experimental/websockets exports (a binary message arrives as one when binaryType is
// "blob", and send() takes one): its bytes, `size`, `type`, and promise-returning readers, as k6's.
import { goError } from '../api/go-error.js';

const BLOBS = new WeakMap<object, Uint8Array>();
/**
 * Blobs made for received messages. k6 v1.3's send() recognises only those as Blobs: one a script
 * makes with `new Blob()` is refused as `unsupported send type map[string]interface {}` (measured).
 */
const RECEIVED = new WeakSet<object>();

/** The Blob of a binary message, which send() takes back. */
export function receivedBlob(data: ArrayBuffer): Blob {
  const blob = new Blob([data]);
  RECEIVED.add(blob);
  return blob;
}

/** The bytes of a Blob that send() takes (see RECEIVED). */
export function sendableBlobBytes(value: unknown): Uint8Array | undefined {
  return value && typeof value === 'object' && RECEIVED.has(value) ? BLOBS.get(value) : undefined;
}

/** A Blob's bytes, when `value` is one of this module's Blobs. */
export function blobBytes(value: unknown): Uint8Array | undefined {
  return value && typeof value === 'object' ? BLOBS.get(value) : undefined;
}

function partBytes(part: unknown): Uint8Array {
  if (typeof part === 'string') return new TextEncoder().encode(part);
  if (part instanceof ArrayBuffer) return new Uint8Array(part.slice(0));
  if (ArrayBuffer.isView(part)) {
    return new Uint8Array(part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength));
  }
  const blob = blobBytes(part);
  if (blob) return blob;
  throw goError(`failed to process [blobParts]: unsupported type: ${typeof part}`);
}

export class Blob {
  readonly #type: string;

  constructor(parts?: unknown, options?: unknown) {
    const chunks = parts === undefined ? [] : Array.from(parts as ArrayLike<unknown>, partBytes);
    const bytes = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.length;
    }
    if (options !== undefined && (options === null || typeof options !== 'object')) {
      throw goError('[options] must be an object');
    }
    const type = (options as { type?: unknown } | undefined)?.type;
    this.#type = type === undefined ? '' : String(type);
    BLOBS.set(this, bytes);
  }

  get size(): number {
    return BLOBS.get(this)!.length;
  }

  get type(): string {
    return this.#type;
  }

  arrayBuffer(): Promise<ArrayBuffer> {
    return Promise.resolve(BLOBS.get(this)!.slice().buffer);
  }

  bytes(): Promise<Uint8Array> {
    return Promise.resolve(BLOBS.get(this)!.slice());
  }

  text(): Promise<string> {
    return Promise.resolve(new TextDecoder().decode(BLOBS.get(this)));
  }

  slice(start?: unknown, end?: unknown, contentType?: unknown): Blob {
    const bytes = BLOBS.get(this)!;
    let to = end === undefined ? bytes.length : Math.trunc(Number(end));
    if (to < 0) to += bytes.length;
    const from = start === undefined ? 0 : Math.trunc(Number(start));
    return new Blob([bytes.subarray(from, to)], {
      type: contentType === undefined ? '' : String(contentType),
    });
  }

  toString(): string {
    return '[object Blob]';
  }
}
