// The root hook plugin as `npm test` would load it, in a child mocha: a test that writes into the
// guarded folder fails the run and is named; one that only reads it passes.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from './command.js';
import { REPO_ROOT } from './script-process.js';

async function mochaWithGuard(fixture: string, guarded: string) {
  const r = await runCommand(
    process.execPath,
    [
      'node_modules/mocha/bin/mocha.js',
      '--require',
      'devkit/results-guard.mocha.ts',
      `devkit/fixtures/results-guard/${fixture}.fixture.ts`,
    ],
    { cwd: REPO_ROOT, env: { ...process.env, LT_RESULTS_GUARD_DIR: guarded }, timeoutMs: 60_000 },
  );
  return { code: r.code, out: `${r.stdout}${r.stderr}` };
}

describe('devkit/results-guard.mocha.ts (root hook plugin)', function () {
  this.timeout(90_000);
  let guarded = '';
  beforeEach(() => {
    guarded = mkdtempSync(join(tmpdir(), 'loadlab-guarded-'));
  });
  afterEach(() => rmSync(guarded, { recursive: true, force: true }));

  it('fails the test that writes into the folder, naming it and the file', async () => {
    const r = await mochaWithGuard('writes', guarded);
    assert.notEqual(r.code, 0, r.out);
    assert.match(r.out, /"after each" hook: afterEach for "writes a summary into the guarded folder"/);
    assert.match(r.out, /the tests changed .* \(1 entry\)/);
    assert.match(r.out, /added summary-smoke-load-x\.json/);
  });

  it('passes when the tests only read it', async () => {
    const r = await mochaWithGuard('clean', guarded);
    assert.equal(r.code, 0, r.out);
  });
});
