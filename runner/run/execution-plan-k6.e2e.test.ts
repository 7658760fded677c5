// The test's max VUs and duration, side by side with real k6: `k6 inspect --execution-requirements`
// on each layout of testing/plan-layouts.ts (scenarios that do and do not overlap in time) against
// the runner's inspect() and its banner line. Skipped, with the reason, where there is no real k6.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { formatDuration } from '@loadlab/k6-format/duration';
import { runCommand } from '../../devkit/command.js';
import { NO_REAL_K6, realK6 } from '../../devkit/real-k6.js';
import { parseRunArgs } from '../cli/args.js';
import { inspect } from '../inspect.js';
import { consolidate } from '../options/options.js';
import { layoutScript, PLAN_LAYOUTS } from '../testing/plan-layouts.js';
import { banner } from './console.js';

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
      const config = consolidate({ scenarios: layout.scenarios }, {}, parseRunArgs([script]));
      const count = Object.keys(layout.scenarios).length;
      assert.ok(
        banner(script, [], config.scenarios).includes(
          `${count} scenario${count === 1 ? '' : 's'}, ${k6.maxVUs} max VUs, ${k6.totalDuration} max duration`,
        ),
      );
    });
  });
});
