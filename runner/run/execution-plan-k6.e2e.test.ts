// The test's max VUs and duration, side by side with real k6: `k6 inspect --execution-requirements`
// on each layout of testing/plan-layouts.ts (scenarios that do and do not overlap in time) against
// the runner's inspect(), and the banner's line of both engines' `run` (whose setup aborts the test
// at once), where k6 rounds the max duration to 100 ms. Skipped, with the reason, where there is no
// real k6.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '@loadlab/k6-format/duration';
import { runCommand } from '../../devkit/command.js';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { NO_REAL_K6, realK6 } from '../../devkit/real-k6.js';
import { EXIT } from '@loadlab/k6-format/exit-codes';
import { inspect } from '../inspect.js';
import { layoutScript, PLAN_LAYOUTS, type PlanLayout } from '../testing/plan-layouts.js';

async function k6Requirements(
  k6: string,
  script: string,
): Promise<{ maxVUs: number; totalDuration: string }> {
  const run = await runCommand(k6, ['inspect', '--execution-requirements', script], {
    cwd: process.cwd(),
    env: { HOME: process.env.HOME ?? '/tmp' },
    timeoutMs: 60_000,
  });
  assert.equal(run.code, 0, run.stderr);
  const { maxVUs, totalDuration } = JSON.parse(run.stdout.slice(run.stdout.indexOf('{'))) as {
    maxVUs: number;
    totalDuration: string;
  };
  return { maxVUs, totalDuration };
}

/** The banner's `scenarios:` line that `engine` prints for the layout (its setup aborts the test). */
async function bannerLine(engine: 'k6' | 'node', dir: string, layout: PlanLayout): Promise<string> {
  const script = join(dir, `banner-${engine}.js`);
  writeFileSync(script, layoutScript(layout, { abortInSetup: true }));
  const run = await runLoadlab(['--no-color', script], { engine, cwd: dir, timeoutMs: 60_000 });
  assert.equal(run.code, EXIT.scriptAborted, run.output);
  const line = run.stdout.split('\n').find((l) => l.startsWith('     scenarios: '));
  assert.ok(line, run.output);
  return line;
}

describe('runner/run: max VUs and duration of the whole test against real k6', function () {
  this.timeout(120_000);
  let dir: string;
  before(function () {
    if (!realK6()) {
      console.warn(`      skipped: ${NO_REAL_K6}`);
      this.skip();
    }
    dir = mkdtempSync(join(tmpdir(), 'loadlab-plan-'));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  PLAN_LAYOUTS.forEach((layout, i) => {
    it(layout.name, async () => {
      const script = join(dir, `layout-${i}.js`);
      writeFileSync(script, layoutScript(layout));
      const k6 = await k6Requirements(realK6()!, script);
      assert.deepEqual(k6, layout.k6, 'real k6 no longer gives the recorded numbers');
      const runner = await inspect(script);
      assert.deepEqual({ maxVUs: runner.maxVus, totalDuration: formatDuration(runner.totalDurationMs) }, k6);
      assert.equal(await bannerLine('node', dir, layout), await bannerLine('k6', dir, layout));
    });
  });
});
