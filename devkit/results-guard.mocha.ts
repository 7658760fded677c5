// A mocha root hook plugin: `mocha --require devkit/results-guard.mocha.ts …` snapshots the
// repository's results/ before the first test and after each one, and fails the test that added,
// changed or removed anything there, naming it (and the run, in afterAll, for a change made outside any
// test). results/ belongs to the user's runs and reports.
import type { Context } from 'mocha';
import { fileURLToPath } from 'node:url';
import { describeChanges, snapshotChanges, snapshotFolder, type Snapshot } from './results-guard.js';

// LT_RESULTS_GUARD_DIR points the guard elsewhere: its own test proves it fails on a real write.
const RESULTS = process.env.LT_RESULTS_GUARD_DIR || fileURLToPath(new URL('../results', import.meta.url));
let last: Snapshot | undefined;

/** Changes since the last look, described; the baseline moves on so one write is blamed once. */
function changesSinceLastLook(): string | undefined {
  if (!last) return undefined;
  const now = snapshotFolder(RESULTS);
  const changes = snapshotChanges(last, now);
  last = now;
  return changes.length ? describeChanges(RESULTS, changes) : undefined;
}

export const mochaHooks = {
  beforeAll(): void {
    last = snapshotFolder(RESULTS);
  },
  afterEach(this: Context): void {
    const changed = changesSinceLastLook();
    if (changed) throw new Error(`${this.currentTest?.fullTitle() ?? 'a test'}: ${changed}`);
  },
  afterAll(): void {
    const changed = changesSinceLastLook();
    if (changed) throw new Error(changed);
  },
};
