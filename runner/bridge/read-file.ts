// A file read whole into shared memory, by the thread that asks: a Node worker (vu/init-files.ts) or
// the main thread for a VU isolate, which has no file system (its build swaps this module for
// vu/isolate/read-file.ts, which asks the main thread).
import { closeSync, fstatSync, openSync, readFileSync, readSync, statSync } from 'node:fs';

/** The bytes of `absPath` in a SharedArrayBuffer (no second copy on the heap), or 'directory'; throws fs errors. */
export function readFileShared(absPath: string): SharedArrayBuffer | 'directory' {
  if (statSync(absPath).isDirectory()) return 'directory';
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
