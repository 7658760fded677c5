// The root hook plugin as every mocha run loads it (.mocharc.json), in a child mocha: folders a test
// makes in tmpdir(), and folders its child processes make in theirs, are gone when the run ends.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { runCommand } from './command.js';
import { REPO_ROOT } from './script-process.js';

describe('devkit/temp-folder.mocha.ts (root hook plugin)', function () {
  this.timeout(90_000);
  let outer = '';
  before(() => {
    outer = mkdtempSync(join(tmpdir(), 'loadlab-temp-outer-'));
  });
  after(() => rmSync(outer, { recursive: true, force: true }));

  it('removes the run folder, and what the test and its child left in it, when the run ends', async () => {
    const r = await runCommand(
      process.execPath,
      ['node_modules/mocha/bin/mocha.js', 'devkit/fixtures/temp-folder/leaves-folders.fixture.ts'],
      { cwd: REPO_ROOT, env: { ...process.env, TMPDIR: outer }, timeoutMs: 60_000 },
    );
    assert.equal(r.code, 0, r.output);
    const left = [...r.stdout.matchAll(/^LEFT (.+)$/gm)].map((m) => m[1]!);
    assert.equal(left.length, 2, r.output);
    const runFolders = new Set(left.map((dir) => dirname(dir)));
    assert.equal(runFolders.size, 1, `both in one run folder: ${left.join(', ')}`);
    const [runFolder] = runFolders;
    assert.equal(dirname(runFolder!), outer, 'the run folder is made in the TMPDIR mocha was given');
    for (const dir of [...left, runFolder!]) assert.ok(!existsSync(dir), `${dir} was left behind`);
  });
});
