// The suite's bundles as k6 users run them: an error inside a build:k6 bundle points at the suite's
// TypeScript through the source map beside the bundle, the same on real k6 and on the runner.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { logLines, realK6OrSkip, RUNNER } from '../runner/testing/log-lines.js';
import { bundleSuite } from './build.js';

describe('build:k6 bundles and their source maps', () => {
  it("a build:k6 bundle (dist/k6, its map beside it) points to the suite's .ts lines as on real k6", async function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const dir = await mkdtemp(path.join(tmpdir(), 'loadlab-dist-'));
    try {
      await bundleSuite(['k6/scenarios/smoke/api-health.ts'], dir);
      const script = path.join(dir, 'scenarios/smoke/api-health.js');
      // An init error raised in k6/lib: two frames, both in the suite's TypeScript.
      const flags = ['-e', 'LT_THINK_TIME=abc'];
      const want = logLines(k6, script, flags, 107);
      assert.match(want.join('\n'), /k6\/lib\/think-time\.ts:\d+:\d+/);
      assert.deepEqual(logLines(RUNNER, script, flags, 107), want);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
