// The installed package's postinstall: builds the VU worker's bundle once, beside vu/worker-code.js,
// where every run reads it (runner/vu/worker-code.ts). It is built here rather than packed because
// the bundle names the installed cheerio by its absolute path. Should it fail, the install goes on:
// each run then builds the bundle itself (0.1-0.2 s of its start).
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildWorkerCode, WORKER_BUNDLE_FILE } from '../vu/worker-code.js';

try {
  const worker = fileURLToPath(new URL('../vu/worker.js', import.meta.url));
  writeFileSync(new URL(`../vu/${WORKER_BUNDLE_FILE}`, import.meta.url), buildWorkerCode(worker));
} catch (error) {
  process.stderr.write(
    `@loadlab/runner: the VU worker bundle was not built (${error instanceof Error ? error.message : String(error)}); each run will build it\n`,
  );
}
