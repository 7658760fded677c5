// `npm run report`: real k6 sample files in, report files out; the exit code follows the verdict
// (0 PASS, 1 FAIL); bad input gives one line and exit 2.
import assert from 'node:assert/strict';
import { copyFile, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { K6_GOLDEN, K6_SAMPLES } from '../devkit/k6-reference.js';
import { runScript } from '../devkit/command.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SAMPLES = K6_SAMPLES;

async function cli(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runScript('scripts/report-cli.ts', args, {
    cwd: ROOT,
    env: process.env,
  });
  return { code: code ?? 1, stdout, stderr };
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
    assert.match(r.stdout, /^PASS {2}summary-pass \[not recorded\]\n/);
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

  /** A results/ folder as a newcomer's commands leave it, each file a real k6 sample. */
  async function resultsFolder(name: string): Promise<string> {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const results = join(dir, name);
    const runs = join(results, 'runs');
    await mkdir(runs, { recursive: true });
    const pass = await readFile(join(SAMPLES, 'summary-pass.json'), 'utf8');
    // npm run lab twice: the older run on the Node runner, the newer on k6. The suite's handleSummary
    // also wrote each summary to results/summary-<scenario>-<profile>-<time>.json and summary-latest.json.
    const engines = {
      '20261122T100000Z':
        'run-k6: engine node (no k6 on PATH and no usable container engine); version loadlab 0.1.0',
      '20261122T110000Z': 'run-k6: engine k6 (k6 v1.3.0 on PATH); version k6 v1.3.0',
    };
    for (const [id, line] of Object.entries(engines)) {
      for (const scenario of ['smoke', 'spike']) {
        await writeFile(join(runs, `${id}-${scenario}.json`), pass);
        await copyFile(join(SAMPLES, 'points-head.ndjson'), join(runs, `${id}-${scenario}.ndjson`));
        await writeFile(join(runs, `${id}-${scenario}.log`), `${line}\n\n  execution: local\n`);
      }
      const time = `${id.slice(0, 4)}-${id.slice(4, 6)}-${id.slice(6, 8)}T${id.slice(9, 11)}-${id.slice(11, 13)}-30Z`;
      await writeFile(join(results, `summary-smoke-smoke-${time}.json`), pass);
      await writeFile(join(results, `summary-spike-smoke-${time}.json`), pass);
    }
    await writeFile(join(results, 'summary-latest.json'), pass);
    await writeFile(join(results, 'REPORT.md'), '# the lab report\n');
    return results;
  }

  it('a results/ folder means its newest run only, with the engine of every scenario named', async () => {
    const results = await resultsFolder('results-lab');
    const out = join(dir, 'out-lab');
    const r = await cli(['--out', out, results]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.stdout.split('\n').slice(0, 3), [
      'PASS  smoke [k6 (k6 v1.3.0)]',
      'PASS  spike [k6 (k6 v1.3.0)]',
      'compared with run 20261122T100000Z',
    ]);
    const md = await readFile(join(out, 'REPORT.md'), 'utf8');
    // Two scenarios, both of the newest run: no row named after a file, no summary-latest.
    assert.deepEqual(
      [...md.matchAll(/^## (\S+) — /gm)].map((m) => m[1]),
      ['smoke', 'spike'],
    );
    assert.match(md, /\| smoke \| ✅ PASS \| k6 \(k6 v1\.3\.0\) \|/);
    assert.match(md, /^Engine: k6 \(k6 v1\.3\.0\)\.$/m);
    // The previous run used the Node runner: the comparison says its numbers are not comparable.
    assert.match(
      md,
      /> ⚠️ run 20261122T100000Z ran on Node runner \(loadlab 0\.1\.0\), this one ran on k6 \(k6 v1\.3\.0\): the numbers are not comparable\./,
    );
    const html = await readFile(join(out, 'report', 'index.html'), 'utf8');
    assert.ok(html.includes('"label":"k6 (k6 v1.3.0)"'), 'the HTML report has the engine');
  });

  it('after npm run test:ci, results/ means the ci run: its timestamped summary, not the copies', async () => {
    const { writeFile } = await import('node:fs/promises');
    const results = await resultsFolder('results-ci');
    // What npm run test:ci adds: the suite's summary files and k6's --summary-export.
    // (Another run, so other numbers than the lab's files.)
    const ci = JSON.parse(await readFile(join(SAMPLES, 'summary-pass.json'), 'utf8'));
    ci.state.testRunDurationMs = 3000;
    await writeFile(join(results, 'summary-smoke-ci-2026-11-22T12-00-00Z.json'), JSON.stringify(ci));
    await copyFile(join(K6_GOLDEN, 'export.json'), join(results, 'ci-summary.json'));
    const out = join(dir, 'out-ci');
    const r = await cli(['--out', out, results]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^PASS {2}smoke-ci \[not recorded\]\n/);
    const md = await readFile(join(out, 'REPORT.md'), 'utf8');
    assert.deepEqual(
      [...md.matchAll(/^## (\S+) — /gm)].map((m) => m[1]),
      ['smoke-ci'],
    );
    assert.match(md, /Generated .*, run 20261122T120000Z\./);
    // The lab's copies are another run of other scenarios: nothing to compare with, so nothing said.
    assert.doesNotMatch(r.stdout, /compared with/);
    // A second test:ci is compared with the first.
    ci.state.testRunDurationMs = 4000;
    await writeFile(join(results, 'summary-smoke-ci-2026-11-22T13-00-00Z.json'), JSON.stringify(ci));
    // Run through scripts/run-k6.sh, the suite writes the engine line beside its summary (test:ci keeps no log).
    await writeFile(
      join(results, 'summary-smoke-ci-2026-11-22T13-00-00Z.engine'),
      'run-k6: engine node (no k6 on PATH and no usable container engine); version loadlab 0.1.0\n',
    );
    const again = await cli(['--out', out, results]);
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stdout, /^PASS {2}smoke-ci \[Node runner \(loadlab 0\.1\.0\)\]/m);
    assert.match(again.stdout, /^compared with run 20261122T120000Z$/m);
  });

  it('reads --summary-export output, and exits 1 when the report says FAIL', async () => {
    const out = join(dir, 'out-export');
    const r = await cli(['--out', out, join(K6_GOLDEN, 'export.json')]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^FAIL {2}export \[not recorded\]: threshold checks: rate>0\.9 crossed/m);
    assert.match(r.stdout, /^report FAIL: /m);
    assert.match(await readFile(join(out, 'REPORT.md'), 'utf8'), /^# Load test report — FAIL/);
  });

  it('one file it cannot read is named and left out; the others are reported', async () => {
    const { writeFile } = await import('node:fs/promises');
    const bad = join(dir, '20261122T130000Z-broken.json');
    await writeFile(bad, '{"metrics": ');
    const good = join(dir, '20261122T130000Z-smoke.json');
    await copyFile(join(SAMPLES, 'summary-pass.json'), good);
    const out = join(dir, 'out-skip');
    const r = await cli(['--out', out, '--no-compare', good, bad]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^report: skipped .*20261122T130000Z-broken\.json: not JSON/m);
    assert.match(r.stdout, /^PASS {2}smoke/m);
    const md = await readFile(join(out, 'REPORT.md'), 'utf8');
    assert.match(md, /\*\*1 input skipped\*\* \(could not be read\):\n\n- broken: .*not JSON/);
  });

  it('exits 2 and leaves the last report alone when not one input can be read', async () => {
    const { mkdir, writeFile } = await import('node:fs/promises');
    const out = join(dir, 'out-none');
    await mkdir(out);
    await writeFile(join(out, 'REPORT.md'), 'the last good report');
    const bad = join(dir, 'only-bad.json');
    await writeFile(bad, '[]');
    const r = await cli(['--out', out, bad]);
    assert.equal(r.code, 2, r.stdout);
    assert.match(r.stderr, /not one input could be read; no report written/);
    assert.equal(await readFile(join(out, 'REPORT.md'), 'utf8'), 'the last good report');
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
