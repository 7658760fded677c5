// `-o json=` on a file that cannot take the samples (a full disk: /dev/full, plain and through a
// `.gz` name) must never hold the run (issue 39, row 2): k6 logs "Sample couldn't be marshalled to
// JSON" for each flush that fails, prints its summary and exits 0 when the test ends.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { realK6OrSkip } from '../testing/log-lines.js';

const SCRIPT = `
import { Counter } from 'k6/metrics';
const c = new Counter('my_counter');
export const options = { vus: 2, duration: '2s' };
export default function () { for (let i = 0; i < 50; i++) c.add(1, { i: String(i) }); }
`;

interface Ending {
  code: number | null;
  /** Each distinct log line (without its time), once. */
  distinctLines: string[];
  errorLines: number;
  summaryPrinted: boolean;
  seconds: number;
}

async function endingOf(engine: 'k6' | 'node', file: string): Promise<Ending> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-json-full-'));
  try {
    writeFileSync(join(dir, 'script.js'), SCRIPT);
    // A name in the run's folder that is the full device: `.gz` decides the output's format.
    symlinkSync('/dev/full', join(dir, file));
    const started = Date.now();
    const run = await runLoadlab(['-o', `json=${file}`, 'script.js'], {
      engine,
      cwd: dir,
      timeoutMs: 40_000,
    });
    const lines = run.stderr
      .split('\n')
      .filter((l) => l.startsWith('time='))
      .map((l) => l.replace(/^time="[^"]*" /, ''));
    return {
      code: run.code,
      distinctLines: [...new Set(lines)],
      errorLines: lines.length,
      summaryPrinted: run.stdout.includes('TOTAL RESULTS'),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runner/outputs json on a full disk, as k6 v1.3', function () {
  this.timeout(120_000);

  for (const file of ['points.json', 'points.json.gz']) {
    it(`${file}: a line per failed flush, the summary, exit 0, the run not held`, async function () {
      realK6OrSkip(this);
      const k6 = await endingOf('k6', file);
      const runner = await endingOf('node', file);
      assert.deepEqual(
        { code: runner.code, lines: runner.distinctLines, summary: runner.summaryPrinted },
        { code: k6.code, lines: k6.distinctLines, summary: k6.summaryPrinted },
      );
      assert.deepEqual(k6.distinctLines, [
        `level=error msg="Sample couldn't be marshalled to JSON" error="write ${file}: no space left on device" filename=${file} output=json`,
      ]);
      // k6 flushes every 200 ms: a 2 s test fails about ten times, and so must the runner, not once.
      assert.ok(runner.errorLines >= 3, `${runner.errorLines} lines (k6 ${k6.errorLines})`);
      assert.ok(runner.seconds < 20, `the runner ended after ${runner.seconds} s`);
    });
  }
});
