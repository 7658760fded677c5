// The installed package's postinstall: builds the VU bundles once, beside vu/worker-code.js and
// vu/isolate-code.js, where every run reads them (runner/vu/worker-code.ts, runner/vu/isolate-code.ts).
// They are built here rather than packed because the worker's bundle names the installed cheerio by
// its absolute path. Should one fail, the install goes on: each run then builds it itself (0.1-0.2 s
// of its start).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWorkerCode, WORKER_BUNDLE_FILE } from '../vu/worker-code.js';
import { buildIsolateCode, ISOLATE_BUNDLE_FILE } from '../vu/isolate-code.js';

const failed = (what: string, error: unknown) =>
  process.stderr.write(
    `@loadlab/runner: the ${what} was not built (${error instanceof Error ? error.message : String(error)}); each run will build it\n`,
  );

try {
  const worker = fileURLToPath(new URL('../vu/worker.js', import.meta.url));
  writeFileSync(new URL(`../vu/${WORKER_BUNDLE_FILE}`, import.meta.url), buildWorkerCode(worker));
} catch (error) {
  failed('VU worker bundle', error);
}
try {
  writeFileSync(new URL(`../vu/${ISOLATE_BUNDLE_FILE}`, import.meta.url), await buildIsolateCode());
} catch (error) {
  failed('VU isolate bundle', error);
}
