// The test tiers run every test file, and the dependency rules know the imports the checker cannot see.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const REPO = fileURLToPath(new URL('../', import.meta.url));
const require = createRequire(import.meta.url);
const { runsIn, sourceFiles, testTiers, testCode } = require('./test-code.cjs') as {
  runsIn(tier: object, path: string): boolean;
  sourceFiles(root: string): string[];
  testTiers(root: string): { unit: object; e2e: object };
  testCode(root: string, entries?: string[]): string[];
};
const rules = require('../.dependency-cruiser.cjs') as { COMPUTED_IMPORTS: Record<string, string[]> };

describe('test tiers and the dependency rules', () => {
  it('runs every *.test.ts of every folder in exactly one tier, a new top-level folder included', () => {
    const tiers = testTiers(REPO);
    const tests = sourceFiles(REPO).filter((path) => path.endsWith('.test.ts'));
    assert.ok(tests.length > 100);
    for (const path of [...tests, 'a-new-folder/thing.test.ts', 'a-new-folder/thing.e2e.test.ts']) {
      const runs = [runsIn(tiers.unit, path), runsIn(tiers.e2e, path)].filter(Boolean).length;
      assert.equal(runs, 1, `${path} runs in ${runs} tiers`);
    }
    assert.equal(runsIn(tiers.unit, 'a-new-folder/thing.e2e.test.ts'), false);
  });

  it('names exactly the computed imports of bin/loadlab.js, k6/build.ts and runner/vu/isolate-code.ts', () => {
    const bin = readFileSync(`${REPO}bin/loadlab.js`, 'utf8');
    const labModules = [...bin.matchAll(/labModule\('([^']+)'\)/g)].map((m) => `${m[1]}.ts`);
    assert.deepEqual(rules.COMPUTED_IMPORTS['bin/loadlab.js'], labModules);
    const build = readFileSync(`${REPO}k6/build.ts`, 'utf8');
    const dirs = /ENTRY_DIRS = \[([^\]]*)\]/
      .exec(build)![1]!
      .match(/'[^']+'/g)!
      .map((d) => `k6/${d.slice(1, -1)}/`);
    assert.deepEqual(rules.COMPUTED_IMPORTS['k6/build.ts'], dirs);
    // runner/vu/isolate-code.ts bundles its stand-ins by name from one folder.
    const isolateCode = readFileSync(`${REPO}runner/vu/isolate-code.ts`, 'utf8');
    assert.match(isolateCode, /path\.join\(vuDir, 'isolate', `\$\{name\}\.\$\{sourceExt\}`\)/);
    assert.deepEqual(rules.COMPUTED_IMPORTS['runner/vu/isolate-code.ts'], ['runner/vu/isolate/']);
  });

  it('counts as test code what only tests import or start, whatever its name', () => {
    const test = new Set(testCode(REPO, Object.values(rules.COMPUTED_IMPORTS).flat()));
    // Started by a test by its path, imported by nothing shipped.
    assert.ok(test.has('report/live/fixtures-exit-child.ts'));
    // Entry points the package files, shell scripts or computed imports run are never test code.
    for (const shipped of [
      'scripts/docs-server.ts',
      'report/live/index.ts',
      'k6/scenarios/smoke/api-health.ts',
    ])
      assert.ok(!test.has(shipped), shipped);
  });
});
