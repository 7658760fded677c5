// A mocha root hook plugin: `mocha --require scripts/results-guard.mocha.ts …` snapshots the
// repository's results/ before the first test and fails the run (an afterAll error) when any test
// added, changed or removed anything there. results/ belongs to the user's runs and reports.
import { fileURLToPath } from 'node:url';
import { describeChanges, snapshotChanges, snapshotFolder, type Snapshot } from './results-guard.js';

// LT_RESULTS_GUARD_DIR points the guard elsewhere: its own test proves it fails on a real write.
const RESULTS = process.env.LT_RESULTS_GUARD_DIR || fileURLToPath(new URL('../results', import.meta.url));
let before: Snapshot | undefined;

export const mochaHooks = {
  beforeAll(): void {
    before = snapshotFolder(RESULTS);
  },
  afterAll(): void {
    if (!before) return;
    const changes = snapshotChanges(before, snapshotFolder(RESULTS));
    if (changes.length) throw new Error(describeChanges(RESULTS, changes));
  },
};
