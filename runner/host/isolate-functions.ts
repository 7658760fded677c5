// The main thread's functions a VU isolate calls besides the bridge's (shared-isolate-host.ts answers
// them across its addon): they close over nothing of one VU.
import { createHash, createHmac, randomBytes } from 'node:crypto';
import type { HostFileAnswer, HostUrlParts } from '../bridge/isolate-api.js';
import { readFileShared } from '../bridge/read-file.js';

export function readFileForIsolate(absPath: string): HostFileAnswer {
  try {
    const read = readFileShared(absPath);
    return read === 'directory' ? { directory: true } : { buffer: read };
  } catch (error) {
    const e = error as NodeJS.ErrnoException;
    return { code: e.code, message: e.message };
  }
}

/** A hash, or an HMAC when `key` is given, by its OpenSSL name. */
export function digestForIsolate(algorithm: string, data: Uint8Array, key?: Uint8Array): Uint8Array {
  const h = key ? createHmac(algorithm, key) : createHash(algorithm);
  return new Uint8Array(h.update(data).digest());
}

export function randomBytesForIsolate(count: number): Uint8Array {
  return new Uint8Array(randomBytes(count));
}

/** Throws a TypeError for what the WHATWG URL parser refuses. */
export function parseUrlForIsolate(input: string, base?: string): HostUrlParts {
  const u = new URL(input, base);
  const { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash } = u;
  return { href, origin, protocol, username, password, host, hostname, port, pathname, search, hash };
}

/** The clock's origin a VU isolate reads its performance.now() against (isolate/globals.ts). */
export function isolateClockBase() {
  const [seconds, nanoseconds] = process.hrtime();
  return { seconds, nanoseconds, perfNow: performance.now() };
}
