// V8's code cache of the VU isolates' bundle, kept on disk from one run to the next. Without it, what an
// iteration runs (the loop, k6/http, check, the metrics) every isolate compiled on its own at its
// first iteration: a quarter of a VU isolate's start (`perf` of 250 VUs). Made at a run's end in a VU
// that ran (shared-isolate-host.ts), the cache holds that too, and the next run's isolates start from it.
// Like Node's compile cache, it lives in the temporary folder, unless LOADLAB_CODE_CACHE names another
// folder or is `off`. One file per bundle, Node version and CPU; V8 rejects a cache made under other
// V8 flags itself. The file is read only from a folder that only its user can write, and a digest
// guards its bytes: V8 checks a cache's header, not its payload.
import { createHash } from 'node:crypto';
import {
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const DIGEST_BYTES = 32;
/** Caches kept in the folder: a runner build and Node version each make their own file. */
export const KEPT_CACHES = 8;
const CACHE_FILE = /^vu-bundle-[0-9a-f]{32}\.v8cache$/;

export interface SavedCodeCache {
  /** The cache saved for this bundle, when it is there, whole and written by this user. */
  read(): ArrayBuffer | undefined;
  /** Replaces the saved cache; a failure leaves things as they were (the cache only saves time). */
  write(cache: Uint8Array): void;
}

/** Where the cache for `code` (the VU bundle) is kept, or undefined when LOADLAB_CODE_CACHE=off. */
export function savedCodeCache(
  code: string,
  env: NodeJS.ProcessEnv = process.env,
): SavedCodeCache | undefined {
  const setting = env.LOADLAB_CODE_CACHE;
  if (setting === 'off') return undefined;
  const dir = setting || join(tmpdir(), 'loadlab-code-cache');
  const key = createHash('sha256')
    .update(`${process.version} ${process.arch}\n`)
    .update(code)
    .digest('hex')
    .slice(0, 32);
  const file = join(dir, `vu-bundle-${key}.v8cache`);
  return {
    read: () => readWhole(dir, file),
    write: (cache) => writeWhole(dir, file, cache),
  };
}

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

/** This user's, and no one else can write it (or into it): another user's file could be any bytes. */
function ownOnly(stats: Stats): boolean {
  const uid = process.getuid?.();
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0);
}

function readWhole(dir: string, file: string): ArrayBuffer | undefined {
  try {
    const folder = lstatSync(dir);
    const stats = lstatSync(file);
    if (!folder.isDirectory() || !ownOnly(folder) || !stats.isFile() || !ownOnly(stats)) return undefined;
    const bytes = readFileSync(file);
    const payload = bytes.subarray(DIGEST_BYTES);
    if (payload.length === 0 || !digest(payload).equals(bytes.subarray(0, DIGEST_BYTES))) return undefined;
    return new Uint8Array(payload).buffer; // the cache's bytes alone: the addon takes a whole ArrayBuffer
  } catch {
    return undefined;
  }
}

function writeWhole(dir: string, file: string, cache: Uint8Array): void {
  // Renamed into place whole: a run reading the file meanwhile sees the old cache or the new one.
  const partial = `${file}.${process.pid}.partial`;
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    if (!ownOnly(lstatSync(dir))) return;
    writeFileSync(partial, Buffer.concat([digest(cache), cache]), { mode: 0o600 });
    renameSync(partial, file);
    removeOldest(dir);
  } catch {
    rmSync(partial, { force: true });
  }
}

/** Bounds the folder: each build of the runner leaves a file, of ~140 KB. */
function removeOldest(dir: string): void {
  const caches = readdirSync(dir)
    .filter((name) => CACHE_FILE.test(name))
    .map((name) => ({ path: join(dir, name), mtimeMs: statSync(join(dir, name)).mtimeMs }))
    .sort((a, b) => b.mtimeMs - a.mtimeMs);
  for (const old of caches.slice(KEPT_CACHES)) rmSync(old.path, { force: true });
}
