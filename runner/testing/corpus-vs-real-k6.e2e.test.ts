// The conformance corpus (corpus.ts) on real k6 and on the runner, side by side against the
// reference target: both exit as k6 does, and their summary data, check and group tree, NDJSON and
// InfluxDB line protocol agree (run-shape.ts). Then `--summary-mode=full`'s text: the same sections
// (TOTAL RESULTS, SCENARIO, GROUP) in the same order with the same checks and metrics.
// Needs a real k6 (../shared/tools/k6 here and in CI); skipped without one.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CORPUS } from './corpus.js';
import { runLoadlab, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { NO_REAL_K6, realK6Available } from '../../devkit/real-k6.js';
import { startInfluxCapture, type InfluxCapture } from './influx-capture.js';
import { explain, sideBySide } from './side-by-side.js';
import { fullSummaryShape } from './summary-text-shape.js';

function writeScript(name: string, text: string): string {
  const file = join(mkdtempSync(join(tmpdir(), 'loadlab-corpus-')), `${name}.js`);
  writeFileSync(file, text);
  return file;
}

describe(`conformance corpus on real k6 and the runner (skipped when ${NO_REAL_K6})`, function () {
  this.timeout(120_000);
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  let influx: InfluxCapture;

  before(async function () {
    if (!realK6Available()) this.skip();
    target = await startReferenceTarget();
    influx = await startInfluxCapture();
  });
  after(async () => {
    await target?.close();
    await influx?.close();
  });

  for (const c of CORPUS) {
    it(`${c.name}: ${c.about}`, async () => {
      const { k6, node, differences } = await sideBySide({
        mode: 'plain',
        script: writeScript(c.name, c.script),
        args: [...(c.args ?? []), '-q'],
        env: { BASE_URL: target.url },
        influx,
        counts: c.counts,
      });
      assert.equal(k6.result.code, c.exitCode, `k6: ${k6.result.stderr}`);
      // A run that started ends with its summary data, aborted or not; one refused before it did not.
      const started = c.exitCode !== 104 && c.exitCode !== 107;
      assert.equal(Boolean(k6.data), started, 'k6 summary data');
      assert.equal(Boolean(node.data), started, 'runner summary data');
      assert.deepEqual(differences, [], explain(differences, k6, node));
      for (const line of c.absentLogs ?? [])
        for (const run of [k6, node])
          assert.ok(!run.result.stderr.includes(line), `${run.engine}: ${line}\n${run.result.stderr}`);
      for (const line of c.logs ?? [])
        for (const run of [k6, node])
          assert.ok(run.result.stderr.includes(line), `${run.engine}: ${line}\n${run.result.stderr}`);
    });
  }

  const FULL_SUMMARY_BODY = [
    "import http from 'k6/http';",
    "import { check, group } from 'k6';",
    "import { Trend } from 'k6/metrics';",
    "const custom = new Trend('custom_wait', true);",
    'export default function () {',
    "  group('first', () => {",
    "    check(http.get(`${__ENV.BASE_URL}/health`), { 'health 200': (r) => r.status === 200 });",
    "    group('nested', () => { http.get(`${__ENV.BASE_URL}/health`); custom.add(5); });",
    '  });',
    "  group('second', () => { check(1, { 'one is one': (v) => v === 1 }); });",
    '}',
    "export function other() { check(http.get(`${__ENV.BASE_URL}/fail`), { 'other 200': (r) => r.status === 200 }); }",
  ];
  const FULL_SUMMARY_OPTIONS: [string, string, string][] = [
    [
      'SCENARIO sections, GROUPs nested in them',
      '↳ GROUP: nested',
      "scenarios: { main: { executor: 'shared-iterations', vus: 1, iterations: 2 }, other: { executor: 'shared-iterations', vus: 1, iterations: 1, exec: 'other', startTime: '300ms' } },",
    ],
    ['the default scenario: top-level GROUP sections', '█ GROUP: first', 'vus: 1, iterations: 2,'],
  ];
  for (const [about, expected, scenarios] of FULL_SUMMARY_OPTIONS)
    it(`--summary-mode=full, ${about}: the same sections, checks and metrics as k6`, async () => {
      const script = writeScript(
        'full',
        [
          ...FULL_SUMMARY_BODY,
          `export const options = { ${scenarios} thresholds: { 'http_req_duration{group:::first}': ['p(95)<5000'] } };`,
          '',
        ].join('\n'),
      );
      const args = [script, '-q', '--no-color', '--summary-mode=full'];
      const env = { BASE_URL: target.url };
      const [k6, node] = await Promise.all([
        runLoadlab(args, { engine: 'k6', env }),
        runLoadlab(args, { engine: 'node', env }),
      ]);
      assert.equal(k6.code, 0, k6.stderr);
      assert.equal(node.code, 0, node.stderr);
      const theirs = fullSummaryShape(k6.stdout);
      assert.ok(
        theirs.some((s) => s.heading.trim() === expected.trim()),
        `${expected}\n${k6.stdout}`,
      );
      const total = theirs.find((s) => s.heading === '█ TOTAL RESULTS');
      assert.ok(total?.metrics.includes('HTTP http_reqs'), k6.stdout);
      assert.deepEqual(fullSummaryShape(node.stdout), theirs, `k6:\n${k6.stdout}\nrunner:\n${node.stdout}`);
    });
});
