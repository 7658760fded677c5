// Files read in init, once per run: k6 reads each file from disk the first time a VU opens it and
// serves every later open() and k6/experimental/fs open() from that copy (lib/fsext's cache-on-read
// file system). Here the first VU to open a path reads it into a SharedArrayBuffer and posts it to
// the main thread, which hands it to every VU started later. After VU 0's init, as in k6, a VU may
// open only the paths VU 0 asked for.
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import type { InitFile } from '../modules/api/runtime.js';
import { FILES_SEALED_KEY, initFileKey, requestedFileKey } from '../bridge/shared-keys.js';

export class InitFiles {
  /** What this VU read or was handed, by key. */
  private readonly own = new Map<string, SharedArrayBuffer>();

  constructor(
    /** The run's buffers when this VU's worker started. */
    private readonly given: Readonly<Record<string, SharedArrayBuffer>>,
    /** Shares a buffer with the VUs started later. */
    private readonly publish: (key: string, buffer: SharedArrayBuffer) => void,
  ) {}

  private find(key: string): SharedArrayBuffer | undefined {
    return this.own.get(key) ?? this.given[key];
  }

  private share(key: string, buffer: SharedArrayBuffer): void {
    this.own.set(key, buffer);
    this.publish(key, buffer);
  }

  /** The bytes of `absPath` (shared, never to be written), or why there are none. */
  read(absPath: string): InitFile {
    const cached = this.find(initFileKey(absPath));
    if (cached) return { bytes: new Uint8Array(cached) };
    const requested = requestedFileKey(absPath);
    if (this.find(FILES_SEALED_KEY) && !this.find(requested)) return { failure: 'never-opened' };
    let result: InitFile;
    try {
      if (statSync(absPath).isDirectory()) result = { failure: 'directory' };
      else {
        const buffer = readShared(absPath);
        this.share(initFileKey(absPath), buffer);
        return { bytes: new Uint8Array(buffer) };
      }
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      result = code === 'ENOENT' ? { failure: 'missing' } : { failure: 'unreadable', error };
    }
    // k6 remembers a path asked for even when it could not be read; a later VU gets the same answer.
    if (!this.find(requested)) this.share(requested, new SharedArrayBuffer(0));
    return result;
  }
}

/** The file read straight into shared memory (no second copy of a large file on the heap). */
function readShared(absPath: string): SharedArrayBuffer {
  const fd = openSync(absPath, 'r');
  try {
    const size = fstatSync(fd).size;
    if (size === 0) return copyShared(readFileSync(fd)); // /proc-style files report no size
    const buffer = new SharedArrayBuffer(size);
    const view = new Uint8Array(buffer);
    let at = 0;
    for (let n = -1; at < size && n !== 0; at += n) n = readSync(fd, view, at, size - at, null);
    return at === size ? buffer : buffer.slice(0, at);
  } finally {
    closeSync(fd);
  }
}

function copyShared(bytes: Uint8Array): SharedArrayBuffer {
  const buffer = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(buffer).set(bytes);
  return buffer;
}
