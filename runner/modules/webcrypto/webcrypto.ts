// The global WebCrypto (`crypto.subtle`) is Node's; this adjusts what scripts can see differ from k6
// v1.3 (runner/vu/script-globals.ts installs it once per VU):
// - JSON.stringify(cryptoKey) prints k6's fields (type, extractable, algorithm, usages), with the
//   algorithm shaped as k6's Go structs serialise it, where Node's CryptoKey prints `{}`;
// - a generated key pair lists privateKey first, as k6's;
// - importKey('jwk', ...) of an ECDSA/ECDH key takes the curve from the JWK's `crv` and reads only
//   kty, crv, x, y and d, as k6 does: Node refused a `crv` other than the requested namedCurve (and an
//   `alg`, `ext` or `key_ops` that disagrees) with DataError, which k6 accepts, reporting the
//   requested namedCurve on the key;
// - exportKey('jwk', ...) of an RSA or EC key has no alg, ext or key_ops, as k6's;
// - a key's usages are listed in the order the script gave them, as k6 keeps them: Node 24 sorts
//   them into the spec's order (['decrypt', 'encrypt'] became ['encrypt', 'decrypt']);
// - each call holds the iteration until its promise settles, as k6's event loop waits for the
//   callback every WebCrypto call registers: a digest the script never awaits still logs.

import type { webcrypto } from 'node:crypto';
import type { PendingWork } from '../../event-loop/pending-work.js';

type CryptoKey = webcrypto.CryptoKey;
type CryptoKeyPair = webcrypto.CryptoKeyPair;
type SubtleCrypto = webcrypto.SubtleCrypto;
type JsonWebKey = webcrypto.JsonWebKey;
type Algorithm = Record<string, unknown> & { name: string };

const EC_CURVES = ['P-256', 'P-384', 'P-521'];

/** The namedCurve k6 reports for a key imported from a JWK of another curve. */
const requestedCurve = new WeakMap<object, string>();

/** A made key's usages in the script's order (only those Node gave the key; k6 keeps repeats too). */
const scriptUsageOrder = new WeakMap<object, string[]>();

/** Where each key-making method of SubtleCrypto takes its keyUsages argument. */
const USAGES_ARGUMENT = { generateKey: 2, importKey: 4, deriveKey: 4, unwrapKey: 6 } as const;

/** `{algorithm:{name}, name}` and, for all but AES, k6's `key_algorithm` wrapper in front. */
function k6Algorithm(algorithm: Algorithm, key: object): Record<string, unknown> {
  const { name } = algorithm;
  const base = { algorithm: { name }, name };
  const keyAlgorithm = { key_algorithm: base, ...base };
  if (name.startsWith('AES-')) return { ...base, length: algorithm.length };
  if (name === 'HMAC') {
    const hash = (algorithm.hash as { name: string }).name;
    return { ...keyAlgorithm, hash: { algorithm: { name: hash }, name: hash }, length: algorithm.length };
  }
  if (name === 'ECDSA' || name === 'ECDH') {
    return { ...keyAlgorithm, namedCurve: requestedCurve.get(key) ?? algorithm.namedCurve };
  }
  if (name.startsWith('RSA')) {
    return {
      ...keyAlgorithm,
      modulusLength: algorithm.modulusLength,
      hash: { name: (algorithm.hash as { name: string }).name },
    };
  }
  // Algorithms k6 v1.3 does not implement (Ed25519, X25519, PBKDF2, HKDF): Node's own fields.
  return { ...algorithm };
}

function algorithmName(algorithm: unknown): string {
  const name = typeof algorithm === 'string' ? algorithm : (algorithm as { name?: unknown } | null)?.name;
  return String(name ?? '').toUpperCase();
}

/** SubtleCrypto's methods: each returns a promise. */
const SUBTLE_METHODS = [
  'encrypt',
  'decrypt',
  'sign',
  'verify',
  'digest',
  'generateKey',
  'deriveKey',
  'deriveBits',
  'importKey',
  'exportKey',
  'wrapKey',
  'unwrapKey',
] as const;

/** Makes each of subtle's calls hold the VU's iteration (`pending`) until its promise settles. */
function holdIterationPerCall(subtle: SubtleCrypto, pending: PendingWork): void {
  for (const method of SUBTLE_METHODS) {
    const call = subtle[method] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(subtle, method, {
      configurable: true,
      writable: true,
      value(this: SubtleCrypto, ...args: unknown[]) {
        const settled = Reflect.apply(call, this, args) as Promise<unknown>;
        // Nothing to stop at an interrupt: the call ends on its own; its result is then not waited for.
        const hold = pending.hold(() => undefined);
        // Released a turn later: the script's own handlers of the result (which may call again) run first.
        const release = () => void setImmediate(hold.release);
        void settled.then(release, release);
        return settled;
      },
    });
  }
}

export function installWebCryptoCompat(scope: typeof globalThis, pending?: PendingWork): void {
  const web = scope as unknown as { CryptoKey: { prototype: CryptoKey }; crypto: webcrypto.Crypto };
  const keyProto = web.CryptoKey.prototype;
  Object.defineProperty(keyProto, 'toJSON', {
    configurable: true,
    writable: true,
    value(this: CryptoKey) {
      return {
        type: this.type,
        extractable: this.extractable,
        algorithm: k6Algorithm(this.algorithm as Algorithm, this),
        usages: [...this.usages],
      };
    },
  });

  const usagesGetter = Object.getOwnPropertyDescriptor(keyProto, 'usages')!.get!;
  Object.defineProperty(keyProto, 'usages', {
    configurable: true,
    get(this: CryptoKey) {
      const inScriptOrder = scriptUsageOrder.get(this);
      return inScriptOrder === undefined ? usagesGetter.call(this) : [...inScriptOrder];
    },
  });

  const algorithmGetter = Object.getOwnPropertyDescriptor(keyProto, 'algorithm')!.get!;
  Object.defineProperty(keyProto, 'algorithm', {
    configurable: true,
    get(this: CryptoKey) {
      const algorithm = algorithmGetter.call(this) as Algorithm;
      const curve = requestedCurve.get(this);
      return curve === undefined ? algorithm : { ...algorithm, namedCurve: curve };
    },
  });

  const subtle = Object.getPrototypeOf(web.crypto.subtle) as SubtleCrypto;
  const exportKey = subtle.exportKey;
  Object.defineProperty(subtle, 'exportKey', {
    configurable: true,
    writable: true,
    async value(this: SubtleCrypto, ...args: unknown[]) {
      const exported = (await Reflect.apply(exportKey, this, args)) as unknown;
      const [format, key] = args as [unknown, CryptoKey];
      const name = (key.algorithm as Algorithm).name;
      if (format !== 'jwk' || !(name.startsWith('RSA') || name === 'ECDSA' || name === 'ECDH'))
        return exported;
      const { alg: _alg, ext: _ext, key_ops: _ops, ...jwk } = exported as JsonWebKey;
      return jwk;
    },
  });
  const generateKey = subtle.generateKey;
  Object.defineProperty(subtle, 'generateKey', {
    configurable: true,
    writable: true,
    async value(this: SubtleCrypto, ...args: Parameters<SubtleCrypto['generateKey']>) {
      const made = (await Reflect.apply(generateKey, this, args)) as CryptoKey | CryptoKeyPair;
      if (!('privateKey' in made)) return made;
      return { privateKey: made.privateKey, publicKey: made.publicKey };
    },
  });

  const importKey = subtle.importKey;
  Object.defineProperty(subtle, 'importKey', {
    configurable: true,
    writable: true,
    async value(this: SubtleCrypto, ...args: unknown[]) {
      const [format, keyData, algorithm] = args;
      const name = algorithmName(algorithm);
      if (
        format !== 'jwk' ||
        (name !== 'ECDSA' && name !== 'ECDH') ||
        !keyData ||
        typeof keyData !== 'object'
      ) {
        return Reflect.apply(importKey, this, args) as Promise<CryptoKey>;
      }
      // k6 reads only these members of an EC JWK (alg, ext, key_ops and use are not checked).
      const { kty, crv, x, y, d } = keyData as JsonWebKey;
      const jwk: JsonWebKey = d === undefined ? { kty, crv, x, y } : { kty, crv, x, y, d };
      const requested = (algorithm as { namedCurve?: unknown }).namedCurve;
      const curveFromJwk = typeof crv === 'string' && EC_CURVES.includes(crv) && crv !== requested;
      const adjusted = curveFromJwk ? { ...(algorithm as object), namedCurve: crv } : algorithm;
      const key = (await Reflect.apply(importKey, this, [
        format,
        jwk,
        adjusted,
        ...args.slice(3),
      ])) as CryptoKey;
      if (curveFromJwk) requestedCurve.set(key, String(requested));
      return key;
    },
  });

  for (const [method, usagesAt] of Object.entries(USAGES_ARGUMENT)) {
    const make = subtle[method as keyof typeof USAGES_ARGUMENT] as (...args: unknown[]) => Promise<unknown>;
    Object.defineProperty(subtle, method, {
      configurable: true,
      writable: true,
      async value(this: SubtleCrypto, ...args: unknown[]) {
        const made = (await Reflect.apply(make, this, args)) as CryptoKey | CryptoKeyPair;
        const requested = args[usagesAt];
        if (!Array.isArray(requested)) return made;
        for (const key of 'privateKey' in made ? [made.privateKey, made.publicKey] : [made]) {
          const given = usagesGetter.call(key) as string[];
          scriptUsageOrder.set(
            key,
            requested.filter((usage): usage is string => given.includes(usage as string)),
          );
        }
        return made;
      },
    });
  }
  if (pending) holdIterationPerCall(subtle, pending);
}

/**
 * The global through which a script reaches Node's WebCrypto: every key comes from `crypto.subtle`,
 * so installing on its first read is in time. CryptoKey, SubtleCrypto and Crypto are left alone:
 * on Node 22 and 24 they are lazy data properties, and reading their descriptor loads WebCrypto.
 */
const WEBCRYPTO_ENTRY = 'crypto';

/**
 * installWebCryptoCompat when the script first reads `crypto`: Node loads its WebCrypto on that
 * read, and a VU that never uses it would pay 4-15 ms of its start for it (bench:vu-start). The
 * global's own descriptor (an accessor on every Node line) is put back before the install reads it.
 */
export function installWebCryptoCompatLazily(scope: typeof globalThis, pending?: PendingWork): void {
  const original = Object.getOwnPropertyDescriptor(scope, WEBCRYPTO_ENTRY);
  // A VU isolate has no WebCrypto (scripts that use it run in a worker): nothing to adjust.
  if (!original) return;
  if (!original.configurable) return installWebCryptoCompat(scope, pending);
  let installed = false;
  const install = (): void => {
    if (installed) return;
    installed = true;
    Object.defineProperty(scope, WEBCRYPTO_ENTRY, original);
    installWebCryptoCompat(scope, pending);
  };
  Object.defineProperty(scope, WEBCRYPTO_ENTRY, {
    configurable: true,
    enumerable: original.enumerable,
    get() {
      install();
      return (scope as Record<string, unknown>)[WEBCRYPTO_ENTRY];
    },
    set(value: unknown) {
      install();
      (scope as Record<string, unknown>)[WEBCRYPTO_ENTRY] = value;
    },
  });
}
