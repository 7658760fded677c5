// A mocha root hook plugin every mocha run loads (.mocharc.json): the run gets one new temporary folder,
// TMPDIR points at it, and it is removed when the run ends. Every folder a test makes with tmpdir(), and
// every child it starts (devkit's childEnv passes TMPDIR on: the runner, real k6, Chromium's profiles),
// lands there, so a test killed half-way or a browser that never closed leaves nothing behind in /tmp.
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runFolder = mkdtempSync(join(tmpdir(), 'loadlab-test-run-'));
// Sticky and open to all as /tmp is: PostgreSQL's tests run it as an unprivileged user under it.
chmodSync(runFolder, 0o1777);
process.env.TMPDIR = runFolder;

let removed = false;
function removeRunFolder(): void {
  if (removed) return;
  removed = true;
  try {
    rmSync(runFolder, { recursive: true, force: true, maxRetries: 3 });
  } catch (err) {
    console.warn(`could not remove the test run's temporary folder ${runFolder}: ${(err as Error).message}`);
  }
}

// mocha's `exit: true` ends the process right after the run: the exit hook covers an aborted run too.
process.on('exit', removeRunFolder);

export const mochaHooks = { afterAll: removeRunFolder };
