// The VU worker's code, bundled once per process with esbuild into one string that
// every Worker evaluates (`eval: true`). This keeps worker start-up cheap (no TypeScript loader
// per VU) and works the same from .ts sources under tsx and from compiled .js. The compiled
// runner (bin/compiled-runner.js) builds it once, from the sources, into WORKER_BUNDLE_FILE beside
// this module, so a run does not pay esbuild's 0.1-0.2 s for it.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import vm from 'node:vm';
import { esbuild } from '../script/esbuild.js';

export const WORKER_BUNDLE_FILE = 'worker.bundle.js';
/** V8's code cache of the bundle, written beside it in the compiled runner on first use. */
const WORKER_CACHE_FILE = 'worker.bundle.v8-cache';
/** The bundle's name in stack traces and in the code cache. */
export const WORKER_FILENAME = 'loadlab-vu-worker.js';

let cached: string | undefined;
let cachedCode: Buffer | undefined;

export function workerCode(): string {
  if (cached !== undefined) return cached;
  const self = fileURLToPath(import.meta.url);
  if (self.endsWith('.js')) {
    try {
      cached = readFileSync(new URL(WORKER_BUNDLE_FILE, import.meta.url), 'utf8');
      return cached;
    } catch {
      // compiled by other means: build it as from the sources
    }
  }
  cached = buildWorkerCode(self.replace(/worker-code\.(ts|js)$/, (_m, ext: string) => `worker.${ext}`));
  return cached;
}

/**
 * V8's code cache for workerCode(): each VU thread compiles the 185 KB bundle from it in ~1 ms
 * instead of 8-15 ms (measured in a worker, load 11-15). Made once per process by compiling the
 * bundle here (its top level); the compiled runner keeps it in a file beside the bundle, so later
 * runs only read it. A cache of another Node or other V8 flags is rejected by V8 in the worker,
 * which then compiles as it would without one.
 */
export function workerCodeCache(): Buffer {
  if (cachedCode !== undefined) return cachedCode;
  const code = workerCode();
  const file = fileURLToPath(import.meta.url).endsWith('.js')
    ? fileURLToPath(new URL(WORKER_CACHE_FILE, import.meta.url))
    : undefined;
  if (file) {
    try {
      cachedCode = readFileSync(file);
      return cachedCode;
    } catch {
      // not made yet: made below
    }
  }
  cachedCode = new vm.Script(code, { filename: WORKER_FILENAME }).createCachedData();
  if (file) {
    // Written whole under another name then renamed: a concurrent run reads all of it or none.
    const tmp = `${file}.${process.pid}.tmp`;
    try {
      writeFileSync(tmp, cachedCode);
      renameSync(tmp, file);
    } catch {
      // a read-only copy: every run makes its own
    }
  }
  return cachedCode;
}

/** The bundle of the worker whose entry module is `entry` (worker.ts, or a compiled worker.js). */
export function buildWorkerCode(entry: string): string {
  const out = esbuild.buildSync({
    entryPoints: [entry],
    bundle: true,
    write: false,
    // A function around the bundle: Node runs `eval: true` worker code as a script, where every
    // top-level variable is a global reached through a global inline cache, costly in a cold
    // isolate; inside a function they are plain context slots.
    format: 'iife',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
    // The browser module (playwright-core) is loaded on demand by absolute path, never bundled here.
    external: ['*/browser/index.js', 'playwright-core', 'esbuild', 'undici'],
    // k6/html loads cheerio on first use, by this absolute path (modules/html/html.ts): not bundled, so
    // VUs that parse no HTML do not compile it.
    define: { __LOADLAB_CHEERIO__: JSON.stringify(createRequire(import.meta.url).resolve('cheerio')) },
  });
  return out.outputFiles[0]!.text;
}
