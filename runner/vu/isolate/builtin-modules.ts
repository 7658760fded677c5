// process.getBuiltinModule() in a VU isolate: the few Node modules the VU's code loads on first use,
// made over the host's functions. A module a script needs and the isolate has not (node:stream/web,
// node:inspector) is refused in one line; such scripts run on the worker host (vu-host-choice.ts).
import { host, fullCollection } from './host.js';

type Data = string | ArrayBuffer | ArrayBufferView;

function bytesOf(data: Data, encoding?: string): Uint8Array {
  if (typeof data === 'string') return Buffer.from(data, (encoding ?? 'utf8') as BufferEncoding);
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  return new Uint8Array(data);
}

/** A hash or HMAC fed in the isolate and computed by the host in one call, at digest(). */
class Digest {
  private readonly parts: Uint8Array[] = [];
  constructor(
    private readonly algorithm: string,
    private readonly key?: Uint8Array,
  ) {}
  update(data: Data, encoding?: string): this {
    this.parts.push(bytesOf(data, encoding));
    return this;
  }
  digest(encoding?: BufferEncoding): Buffer | string {
    const bytes = host.digest(this.algorithm, Buffer.concat(this.parts), this.key);
    const out = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    return encoding ? out.toString(encoding) : out;
  }
}

const crypto = {
  createHash: (algorithm: string) => new Digest(algorithm),
  createHmac: (algorithm: string, key: Data) => new Digest(algorithm, bytesOf(key)),
  randomBytes: (count: number) => {
    const bytes = host.randomBytes(count);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  },
};

const modules: Record<string, unknown> = {
  'node:crypto': crypto,
  // collection.ts asks V8 for a full collection through these two
  'node:v8': { setFlagsFromString: () => undefined },
  'node:vm': {
    runInNewContext: (code: string) => {
      if (code === 'gc' && fullCollection) return fullCollection;
      throw new Error('node:vm is not available in a VU isolate');
    },
  },
};

export function builtinModule(name: string): unknown {
  const found = modules[name];
  if (found === undefined) throw new Error(`${name} is not available in a VU isolate`);
  return found;
}
