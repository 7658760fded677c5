// Files read in init, once per run: k6 reads each file from disk the first time a VU opens it and
// serves every later open() and k6/experimental/fs open() from that copy (lib/fsext's cache-on-read
// file system). Here the first VU to open a path reads it into a SharedArrayBuffer and posts it to
// the main thread, which hands it to every VU started later. After VU 0's init, as in k6, a VU may
// open only the paths VU 0 asked for.
import type { InitFile } from '../modules/api/runtime.js';
import { FILES_SEALED_KEY, initFileKey, requestedFileKey } from '../bridge/shared-keys.js';
import { readFileShared } from '../bridge/read-file.js';

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
      const buffer = readFileShared(absPath);
      if (buffer === 'directory') result = { failure: 'directory' };
      else {
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
