// `-o json=` on a file that cannot take the samples (a full disk: /dev/full, plain and through a
// `.gz` name) must never hold the run: k6 logs "Sample couldn't be marshalled to
// JSON" for each flush that fails, prints its summary and exits 0 when the test ends. A `.gz` file
// also outlives a kill -9: what was flushed before it decodes.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, gunzipSync } from 'node:zlib';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
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

describe('runner/outputs json under faults (a full disk, a hard stop), as k6 v1.3', function () {
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

  it('a .gz file decodes after a kill -9 and keeps the points flushed before it', async function () {
    const seen = { requests: 0 };
    const target = createServer((_req, res) => {
      seen.requests += 1;
      res.end('ok');
    });
    await new Promise<void>((r) => target.listen(0, '127.0.0.1', r));
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-json-kill-'));
    try {
      writeFileSync(
        join(dir, 'script.js'),
        `import http from 'k6/http';\nimport { sleep } from 'k6';\nexport const options = { vus: 5, duration: '30s' };\nexport default function () { http.get('http://${(target.address() as AddressInfo).address}:${(target.address() as AddressInfo).port}/'); sleep(0.05); }\n`,
      );
      const run = await runLoadlab(['-o', 'json=points.json.gz', 'script.js'], {
        cwd: dir,
        timeoutMs: 60_000,
        signalsAfter: { after: 'running (', signals: ['SIGKILL'], delayMs: 2000 },
      });
      assert.equal(run.code, null, 'killed');
      const kept = gunzipSync(readFileSync(join(dir, 'points.json.gz')), {
        finishFlush: constants.Z_SYNC_FLUSH,
      });
      // The kill may leave the last line half written.
      const points = ndjsonPoints(kept.toString(), 'http_reqs', { cutShort: true }).length;
      // k6 kept 95-97% there; the runner flushes every 200 ms, so all but the last moments survive.
      assert.ok(seen.requests > 20, `${seen.requests} requests`);
      assert.ok(points >= seen.requests * 0.8, `${points} points kept of ${seen.requests} requests`);
    } finally {
      target.closeAllConnections();
      target.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
