// `npm run report`: real k6 sample files in, report files out; bad input gives one line and exit 2.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { K6_SAMPLES } from '../devkit/k6-reference.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = K6_SAMPLES;

function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'scripts', 'report-cli.ts'), ...args],
      { cwd: ROOT },
      (err, stdout, stderr) =>
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe('report CLI', function () {
  this.timeout(30_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-report-cli-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('builds the reports from files of a real k6 run', async () => {
    const out = join(dir, 'out');
    const r = await cli([
      '--out',
      out,
      join(SAMPLES, 'summary-pass.json'),
      join(SAMPLES, 'points-head.ndjson'),
    ]);
    assert.equal(r.code, 0, r.stderr);
    // One summary and one series: paired as one run, named after the summary.
    assert.match(r.stdout, /^PASS {2}summary-pass\n/);
    const md = await readFile(join(out, 'REPORT.md'), 'utf8');
    assert.match(md, /## summary-pass — ✅ PASS/);
    assert.match(md, /\| GET \/fail \| 5 \|/, 'the series fed the endpoint table');
    assert.match(await readFile(join(out, 'junit.xml'), 'utf8'), /<testsuite name="summary-pass"/);
  });

  it('pairs <run-id>-<scenario> files, takes the newest run of a directory and compares with the one before', async () => {
    const runs = join(dir, 'runs');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(runs);
    for (const id of ['20261122T100000Z', '20261122T110000Z']) {
      await copyFile(join(SAMPLES, 'summary-pass.json'), join(runs, `${id}-smoke.json`));
      await copyFile(join(SAMPLES, 'points-head.ndjson'), join(runs, `${id}-smoke.ndjson`));
    }
    const out = join(dir, 'out2');
    const r = await cli(['--out', out, runs]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /compared with run 20261122T100000Z/);
    const md = await readFile(join(out, 'REPORT.md'), 'utf8');
    assert.match(md, /Generated .*, run 20261122T110000Z\./);
    assert.match(md, /### Compared with run 20261122T100000Z/);
    assert.match(md, /\| GET \/health \| 5 \|/, 'the NDJSON of the pair fed the endpoint table');
  });

  it('rejects bad input with one line and exit 2', async () => {
    const none = await cli([]);
    assert.equal(none.code, 2);
    assert.match(none.stderr, /no input files/);
    const missing = await cli([join(dir, 'nope.json')]);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr.trim().split('\n').length, 1);
    assert.match(missing.stderr, /nope\.json: no such file or directory/);
    const wrongKind = await cli([join(SAMPLES, 'README.md')]);
    assert.equal(wrongKind.code, 2);
    assert.match(wrongKind.stderr, /not a summary \(\.json\) or time series/);
  });
});
