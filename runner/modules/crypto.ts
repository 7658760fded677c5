// `k6/crypto` basics: md5/sha1/sha256/sha384/sha512 digests, hmac, randomBytes.
import nodeCrypto from 'node:crypto';

type OutputEncoding = 'hex' | 'base64' | 'base64url' | 'binary';

function digestOut(buf: Buffer, enc?: string): string | ArrayBuffer {
  if (enc === 'hex' || enc === 'base64') return buf.toString(enc);
  if (enc === 'base64url' || enc === 'base64rawurl') return buf.toString('base64url');
  if (enc === 'base64raw') return buf.toString('base64').replace(/=+$/, '');
  if (enc === 'binary' || enc === undefined)
    return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
  throw new Error(`unsupported output encoding "${enc}"`);
}

function data(input: unknown): Buffer {
  if (typeof input === 'string') return Buffer.from(input, 'utf8');
  if (input instanceof ArrayBuffer) return Buffer.from(input);
  if (ArrayBuffer.isView(input)) return Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  return Buffer.from(String(input), 'utf8');
}

export function createCryptoModule(): Record<string, unknown> {
  const hash = (alg: string) => (input: unknown, enc?: OutputEncoding) =>
    digestOut(nodeCrypto.createHash(alg).update(data(input)).digest(), enc);
  const mod = {
    md5: hash('md5'),
    sha1: hash('sha1'),
    sha256: hash('sha256'),
    sha384: hash('sha384'),
    sha512: hash('sha512'),
    hmac: (alg: string, secret: unknown, input: unknown, enc?: OutputEncoding) =>
      digestOut(nodeCrypto.createHmac(alg, data(secret)).update(data(input)).digest(), enc),
    randomBytes: (n: number) => {
      const b = nodeCrypto.randomBytes(n);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
    },
    createHash: (alg: string) => {
      const h = nodeCrypto.createHash(alg);
      return {
        update(input: unknown) {
          h.update(data(input));
          return this;
        },
        digest: (enc?: OutputEncoding) => digestOut(h.digest(), enc),
      };
    },
  };
  return { ...mod, default: mod, __esModule: true };
}
