import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite, formatBuildError, suiteEntryPoints } from './build.js';

describe('build:k6', () => {
  it('finds every scenario and journey of the spec, and no tests', () => {
    const entries = suiteEntryPoints();
    for (const script of [
      'k6/scenarios/smoke/api-health.ts',
      'k6/scenarios/load/api-auth.ts',
      'k6/scenarios/load/api-users.ts',
      'k6/scenarios/load/mixed-traffic.ts',
      'k6/scenarios/stress/api-breakpoint.ts',
      'k6/scenarios/spike/api-spike.ts',
      'k6/scenarios/soak/api-endurance.ts',
      'k6/scenarios/browser/login-page.ts',
      'k6/journeys/login-flow.ts',
      'k6/journeys/authenticated-user.ts',
    ]) {
      assert.ok(entries.includes(script), script);
    }
    assert.ok(entries.every((e) => !e.endsWith('.test.ts')));
  });

  it('bundles each script to the same path as one ESM file that leaves k6 modules to k6', async () => {
    const out = mkdtempSync(join(tmpdir(), 'loadlab-k6-'));
    const outputs = await bundleSuite(suiteEntryPoints(), out);
    assert.equal(outputs.length, suiteEntryPoints().length);
    for (const file of outputs) {
      // Every import left in a bundle is a k6 module; everything of ours is inlined.
      const specifiers = [...readFileSync(file, 'utf8').matchAll(/^import .* from "([^"]+)";$/gm)].map(
        (m) => m[1],
      );
      assert.ok(specifiers.length > 0, file);
      for (const spec of specifiers) assert.match(spec!, /^k6(\/|$)/, `${file} imports ${spec}`);
      assert.ok(readFileSync(`${file}.map`, 'utf8').includes('"sources"'), `${file} has a source map`);
    }
    const smoke = readFileSync(join(out, 'scenarios/smoke/api-health.js'), 'utf8');
    assert.match(smoke, /from "k6\/http"/);
    assert.match(smoke, /'health status 200'|"health status 200"/);
    assert.doesNotMatch(smoke, /from "\.\.?\//, 'project modules are bundled in');
    assert.match(smoke, /export \{[^}]*handleSummary/);
    assert.match(readFileSync(join(out, 'scenarios/browser/login-page.js'), 'utf8'), /from "k6\/browser"/);
  });

  it('fails with one line per error naming file and line', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-k6-broken-'));
    const broken = join(dir, 'broken.ts');
    writeFileSync(
      broken,
      "import http from 'k6/http';\nimport { nope } from './missing.js';\nexport default () => http.get(nope);\n",
    );
    const error = await bundleSuite([broken], join(dir, 'out')).then(
      () => assert.fail('a missing import must fail the build'),
      (e: unknown) => e,
    );
    const lines = formatBuildError(error);
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /^build:k6: .*broken\.ts:2: Could not resolve "\.\/missing\.js"$/);
    assert.deepEqual(formatBuildError(new Error('disk full')), ['build:k6: disk full']);
  });
});
