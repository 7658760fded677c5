// read-file.ts in a VU isolate: the main thread reads the file into shared memory (host/isolate-functions.ts)
// and hands the isolate the buffer itself, not a copy.
import { host } from './host.js';

export function readFileShared(absPath: string): SharedArrayBuffer | 'directory' {
  const answer = host.readFile(absPath);
  if ('buffer' in answer) return answer.buffer;
  if ('directory' in answer) return 'directory';
  throw Object.assign(new Error(answer.message), { code: answer.code });
}
