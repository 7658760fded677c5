// `k6/experimental/fs`: open() in the init context, a File with stat/read/seek returning promises,
// SeekMode, and k6's errors. k6 words its errors as plain objects (not Error instances) with `name`
// and `message`, whose string form is `name: message`; so do these. A file's bytes are read once per
// run and every VU's File reads the same bytes (rt.initFile), as k6's module cache holds one copy for
// all VUs; each File keeps its own offset.
import path from 'node:path';
import { goPathError } from '@loadlab/k6-format/go-path-error';
import { GoRejection } from '../api/go-error.js';
import type { VuRuntime } from '../api/runtime.js';

export type FsErrorName =
  'NotFoundError' | 'InvalidResourceError' | 'ForbiddenError' | 'TypeError' | 'EOFError';

export class FsError {
  constructor(
    readonly name: FsErrorName,
    readonly message: string,
  ) {}
}
// On the prototype, not enumerable: JSON.stringify and Object.keys show `name` and `message` only.
Object.defineProperty(FsError.prototype, 'toString', {
  value(this: FsError) {
    return `${this.name}: ${this.message}`;
  },
});

export const SEEK_MODE = { Start: 0, Current: 1, End: 2 } as const;

/** What another module (k6/experimental/csv) reads a File through: its bytes and shared offset. */
export interface FileSource {
  readonly data: Uint8Array;
  offset: number;
}

const sources = new WeakMap<object, FileSource>();

/** The bytes behind a File the script passes back to a module, undefined for anything else. */
export function fileSource(value: unknown): FileSource | undefined {
  return value !== null && typeof value === 'object' ? sources.get(value) : undefined;
}

/** sobek accepts only whole numbers as offsets (a fraction exports as float64, refused). */
function wholeNumber(value: unknown, argument: string): number {
  if (value === undefined || value === null) {
    throw new FsError(
      'TypeError',
      `seek() failed; reason: the ${argument} argument cannot be null or undefined`,
    );
  }
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || Object.is(value, -0)) {
    throw new FsError('TypeError', `seek() failed; reason: the ${argument} argument must be a number`);
  }
  return value;
}

function seekTarget(source: FileSource, offset: number, whence: number): number {
  const size = source.data.byteLength;
  let target: number;
  if (whence === SEEK_MODE.Start) {
    if (offset < 0) throw new FsError('TypeError', 'offset cannot be negative when using SeekModeStart');
    target = offset;
  } else if (whence === SEEK_MODE.Current) {
    target = source.offset + offset;
  } else {
    if (offset > 0) throw new FsError('TypeError', 'offset cannot be positive when using SeekModeEnd');
    // k6 v1.3 counts from the last byte, not from the end: seek(0, End) of a 12-byte file is 11.
    target = size - 1 + offset;
  }
  if (target < 0) throw new FsError('TypeError', 'seeking before start of file');
  if (target > size) throw new FsError('TypeError', 'seeking beyond end of file');
  return target;
}

/** Copies the next bytes into `into`; null at the end of the file, as k6 resolves read(). */
function readInto(source: FileSource, into: unknown): number | null {
  if (into === undefined || into === null) {
    throw new FsError('TypeError', 'read() failed; reason: into argument cannot be null or undefined');
  }
  if ((into as { constructor?: unknown }).constructor !== Uint8Array) {
    throw new FsError('TypeError', 'read() failed; reason: into argument must be a Uint8Array');
  }
  // k6 writes into the view's whole ArrayBuffer from its start, whatever the view's offset.
  const target = new Uint8Array((into as Uint8Array).buffer);
  const size = source.data.byteLength;
  if (source.offset === size) return null;
  const end = Math.min(source.offset + target.byteLength, size);
  target.set(source.data.subarray(source.offset, end));
  const n = end - source.offset;
  source.offset = end;
  return n;
}

/** Runs `op` as a promise: a thrown FsError becomes the rejection, as k6 rejects. */
function promised<T>(op: () => T): Promise<T> {
  try {
    return Promise.resolve(op());
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

function makeFile(absPath: string, data: Uint8Array): Record<string, unknown> {
  const source: FileSource = { data, offset: 0 };
  // Own enumerable properties in k6's order: Object.keys lists path, read, seek, stat.
  const file = {
    path: absPath,
    read: (into: unknown) => promised(() => readInto(source, into)),
    seek: (offset: unknown, whence: unknown) =>
      promised(() => {
        const by = wholeNumber(offset, 'offset');
        const mode = wholeNumber(whence, 'whence');
        if (mode !== SEEK_MODE.Start && mode !== SEEK_MODE.Current && mode !== SEEK_MODE.End) {
          throw new FsError('TypeError', 'seek() failed; reason: the whence argument must be a SeekMode');
        }
        source.offset = seekTarget(source, by, mode);
        return source.offset;
      }),
    stat: () => promised(() => ({ name: path.basename(absPath), size: data.byteLength })),
  };
  sources.set(file, source);
  return file;
}

function openFile(rt: VuRuntime, p: unknown): Record<string, unknown> {
  if (rt.phase !== 'init') {
    throw new FsError(
      'ForbiddenError',
      'open() failed; reason: opening a file is allowed only in the Init context',
    );
  }
  if (p === undefined || p === null) {
    throw new FsError('TypeError', 'open() failed; reason: path cannot be null or undefined');
  }
  const text = String(p);
  if (text === '') throw new FsError('TypeError', 'open() failed; reason: path cannot be empty');
  // As k6: only the file scheme, and a relative path is the script's folder's.
  const abs = path.resolve(rt.scriptDir, text.replace(/^file:\/\//, ''));
  const file = rt.initFile(abs);
  switch (file.failure) {
    case undefined:
      return makeFile(abs, file.bytes);
    case 'never-opened':
      // k6's file system refuses a path VU 0 did not ask for, before it looks at the disk.
      throw new GoRejection(
        `open() failed, unable to verify if ${JSON.stringify(abs)} exists; reason: path never requested before`,
      );
    case 'missing':
      throw new FsError('NotFoundError', `no such file or directory ${JSON.stringify(abs)}`);
    case 'directory':
      throw new FsError(
        'InvalidResourceError',
        `cannot open ${JSON.stringify(abs)}: opening a directory is not supported`,
      );
    case 'unreadable':
      throw new GoRejection(goPathError('open', abs, file.error));
  }
}

export function createFsModule(rt: VuRuntime): Record<string, unknown> {
  return {
    open: (p: unknown) => promised(() => openFile(rt, p)),
    SeekMode: { ...SEEK_MODE },
  };
}
