// `k6/crypto`: the digests k6 offers (md4 ... ripemd160), hmac, createHash/createHMAC hashers,
// randomBytes and hexEncode, with k6 v1.3's output encodings and its GoErrors for bad input.
import { goBase64Encode } from '../encoding/go-base64.js';
import { goError } from '../api/go-error.js';
import { goBytes, toArrayBuffer } from '../api/go-values.js';
import { hmacMd4, md4 } from './md4.js';

/** node:crypto on first use: loading it costs a VU's start 5-12 ms (bench:vu-start), most scripts never hash. */
const nodeCrypto = (): typeof import('node:crypto') => process.getBuiltinModule('node:crypto');

/** k6's algorithm names, and OpenSSL's for those Node has (MD4 is computed here). */
const ALGORITHMS: Record<string, string | undefined> = {
  md4: undefined,
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
  ripemd160: 'ripemd160',
};

function checkAlgorithm(algorithm: unknown): string {
  const name = String(algorithm ?? '');
  if (!Object.hasOwn(ALGORITHMS, name)) throw goError(`invalid algorithm: ${name}`);
  return name;
}

function digestOf(algorithm: string, message: Buffer): Buffer {
  const openssl = ALGORITHMS[algorithm];
  return openssl ? nodeCrypto().createHash(openssl).update(message).digest() : md4(message);
}

function hmacOf(algorithm: string, key: Buffer, message: Buffer): Buffer {
  const openssl = ALGORITHMS[algorithm];
  return openssl ? nodeCrypto().createHmac(openssl, key).update(message).digest() : hmacMd4(key, message);
}

/** A digest in one of k6's output encodings; no encoding at all is an error too, as in k6. */
function encodeDigest(bytes: Buffer, encoding: unknown): string | ArrayBuffer {
  switch (encoding) {
    case 'hex':
      return bytes.toString('hex');
    case 'base64':
      return goBase64Encode(bytes, 'std');
    case 'base64url':
      return goBase64Encode(bytes, 'url');
    case 'base64rawurl':
      return goBase64Encode(bytes, 'rawurl');
    case 'binary':
      return toArrayBuffer(bytes);
    default:
      throw goError(`invalid output encoding: ${encoding == null ? '' : String(encoding)}`);
  }
}

/** A hasher as k6's createHash/createHMAC return: update() adds, digest() reads without resetting. */
function hasher(sum: (message: Buffer) => Buffer) {
  const parts: Buffer[] = [];
  // k6 lists digest before update (Object.keys shows it).
  return {
    digest(encoding?: unknown): string | ArrayBuffer {
      return encodeDigest(sum(Buffer.concat(parts)), encoding);
    },
    update(input: unknown): void {
      parts.push(goBytes(input));
    },
  };
}

export function createCryptoModule(): Record<string, unknown> {
  const digestFunction = (algorithm: string) => (input: unknown, encoding?: unknown) =>
    encodeDigest(digestOf(algorithm, goBytes(input, `${algorithm} failed: `)), encoding);
  const digests = Object.fromEntries(Object.keys(ALGORITHMS).map((name) => [name, digestFunction(name)]));
  const mod = {
    ...digests,
    hmac(algorithm: unknown, secret: unknown, input: unknown, encoding?: unknown) {
      const name = checkAlgorithm(algorithm);
      return encodeDigest(hmacOf(name, goBytes(secret), goBytes(input)), encoding);
    },
    createHash(algorithm: unknown) {
      const name = checkAlgorithm(algorithm);
      return hasher((message) => digestOf(name, message));
    },
    createHMAC(algorithm: unknown, secret: unknown) {
      const name = checkAlgorithm(algorithm);
      const key = goBytes(secret);
      return hasher((message) => hmacOf(name, key, message));
    },
    randomBytes(size: unknown): ArrayBuffer {
      const count = Math.trunc(Number(size));
      if (!(count >= 1)) throw goError('invalid size');
      return toArrayBuffer(nodeCrypto().randomBytes(count));
    },
    hexEncode: (input: unknown) => goBytes(input).toString('hex'),
  };
  return mod;
}
