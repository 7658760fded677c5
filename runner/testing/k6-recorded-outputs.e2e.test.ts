// The runner against real k6 v1.3 outputs: the same scripts give the same metric names, types,
// sub-metric and threshold keys, check tree and exit codes.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  ndjsonPoints,
  parseNdjson,
  type NdjsonLine,
  type NdjsonMetricLine,
  type NdjsonPointLine,
} from '@loadlab/k6-format/ndjson';
import { runLoadlab, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { realK6Available } from '../../devkit/real-k6.js';
import { K6_SAMPLES } from '../../devkit/k6-reference.js';

interface Group {
  name: string;
  path: string;
  id: string;
  groups: Group[];
  checks: { name: string; path: string; id: string }[];
}

function treeShape(g: Group): unknown {
  return {
    name: g.name,
    path: g.path,
    id: g.id,
    checks: g.checks.map((c) => [c.name, c.path, c.id]).sort(),
    groups: g.groups.map(treeShape).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b))),
  };
}

/** A script of these lines in a fresh temporary folder: the folder and the script's path. */
function scriptInTempDir(name: string, lines: string[]): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-conformance-'));
  const script = join(dir, name);
  writeFileSync(script, `${lines.join('\n')}\n`);
  return { dir, script };
}

const ONE_EMPTY_ITERATION = ['export const options = { iterations: 1 };', 'export default function () {}'];

describe('runner conformance with real k6 outputs', function () {
  this.timeout(120_000);
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;
  before(async () => {
    target = await startReferenceTarget();
  });
  after(() => target.close());

  it('script-sample.js: same metrics, types, sub-metrics, thresholds and check tree as summary-pass.json', async () => {
    const out = mkdtempSync(join(tmpdir(), 'loadlab-conf-'));
    const result = await runLoadlab(
      [`${K6_SAMPLES}/script-sample.js`, '-q', '--out', `json=${out}/points.ndjson`],
      {
        cwd: out,
        env: { BASE_URL: target.url },
      },
    );
    assert.equal(result.code, 0, result.stderr);
    // The reference script writes its handleSummary data to summary.json in the working directory.
    const mine = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'));
    const ref = JSON.parse(readFileSync(`${K6_SAMPLES}/summary-pass.json`, 'utf8'));
    const shape = (d: {
      metrics: Record<string, { type: string; contains: string; values: object; thresholds?: object }>;
    }) =>
      Object.fromEntries(
        Object.entries(d.metrics).map(([k, m]) => [
          k,
          [m.type, m.contains, Object.keys(m.values).sort(), Object.keys(m.thresholds ?? {}).sort()],
        ]),
      );
    // 'pages' runs 5 arrivals/s on 2 pre-allocated VUs: on a busy machine an arrival can find both
    // busy, and then k6 too reports dropped_iterations. Check its shape, then compare the rest.
    const mineShape = shape(mine);
    if (mineShape.dropped_iterations) {
      assert.deepEqual(mineShape.dropped_iterations, ['counter', 'default', ['count', 'rate'], []]);
      delete mineShape.dropped_iterations;
    }
    assert.deepEqual(mineShape, shape(ref));
    assert.deepEqual(treeShape(mine.root_group), treeShape(ref.root_group));
    assert.deepEqual(Object.keys(mine).sort(), Object.keys(ref).sort());
    assert.deepEqual(Object.keys(mine.state).sort(), Object.keys(ref.state).sort());

    const points = parseNdjson(readFileSync(join(out, 'points.ndjson'), 'utf8'));
    const refPoints = parseNdjson(readFileSync(`${K6_SAMPLES}/points-head.ndjson`, 'utf8'));
    const tagKeys = (rows: NdjsonLine[], metric: string) =>
      [
        ...new Set(
          rows
            .filter((r): r is NdjsonPointLine => r.type === 'Point' && r.metric === metric)
            .map((r) =>
              Object.keys(r.data.tags ?? {})
                .sort()
                .join(','),
            ),
        ),
      ].sort();
    for (const metric of ['http_req_duration', 'checks', 'iterations']) {
      for (const keys of tagKeys(refPoints, metric))
        assert.ok(tagKeys(points, metric).includes(keys), `${metric} has tags ${keys}`);
    }
    const durationLine = (lines: NdjsonLine[]) =>
      lines.find((p): p is NdjsonMetricLine => p.type === 'Metric' && p.metric === 'http_req_duration');
    const [metricLine, refLine] = [durationLine(points), durationLine(refPoints)];
    assert.ok(metricLine && refLine, 'both have the Metric line of http_req_duration');
    assert.deepEqual(Object.keys(metricLine.data).sort(), Object.keys(refLine.data).sort());
    assert.deepEqual(metricLine.data.thresholds, refLine.data.thresholds);
  });

  it('logs a failed request with its error as a field of its own and console lines with source=console, as k6', async () => {
    const { script } = scriptInTempDir('refused.js', [
      "import http from 'k6/http';",
      'export const options = { iterations: 1 };',
      "export default function () { http.get('http://127.0.0.1:1/x'); console.log('after'); }",
    ]);
    const result = await runLoadlab([script, '-q', '--summary-mode=disabled']);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.trim().split('\n');
    // The shape of k6-golden/probe_output.txt's Request Failed line, with the time k6 adds.
    assert.match(
      lines[0]!,
      /^time="[^"]+" level=warning msg="Request Failed" error="Get \\"http:\/\/127\.0\.0\.1:1\/x\\": dial tcp 127\.0\.0\.1:1: connect: connection refused"$/,
    );
    assert.match(lines[1]!, /^time="[^"]+" level=info msg=after source=console$/);
  });

  it('URLs Go refuses: k6 warnings and error codes, and samples only for requests that were tried', async () => {
    const { dir, script } = scriptInTempDir('urls.js', [
      "import http from 'k6/http';",
      'export const options = { iterations: 1 };',
      'export default function () {',
      "  const codes = ['not a url', 'some://example.com', 'https:// test.k6.io'].map((u) => http.get(u).error_code);",
      "  console.log(codes.join(','));",
      '}',
    ]);
    const points = join(dir, 'points.ndjson');
    const result = await runLoadlab([script, '-q', '--summary-mode=disabled', '-o', `json=${points}`]);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stderr.trim().split('\n');
    const failed = (error: string) => `level=warning msg="Request Failed" error=${JSON.stringify(error)}`;
    assert.ok(lines[0]!.endsWith(failed('Get "not a url": unsupported protocol scheme ""')), lines[0]);
    assert.ok(
      lines[1]!.endsWith(failed('Get "some://example.com": unsupported protocol scheme "some"')),
      lines[1],
    );
    // k6's handleParseRequestError: the parse error alone, and no request.
    assert.ok(
      lines[2]!.endsWith(
        failed('invalid URL: parse "https:// test.k6.io": invalid character " " in host name'),
      ),
      lines[2],
    );
    assert.match(lines[3]!, /msg="1000,1000,1020" source=console$/);
    const requested = ndjsonPoints(readFileSync(points, 'utf8'), 'http_reqs').map((p) => [
      p.data.tags?.url,
      p.data.tags?.error_code,
    ]);
    assert.deepEqual(requested, [
      ['not a url', '1000'],
      ['some://example.com', '1000'],
    ]);
  });

  it('NDJSON Metric lines write an abortOnFail threshold as its config and the others as strings, as k6', async () => {
    const { dir, script } = scriptInTempDir('thresholds.js', [
      'export const options = { iterations: 1, thresholds: { iterations: [',
      "  { threshold: 'count>0', abortOnFail: true }, { threshold: 'count>0', abortOnFail: true, delayAbortEval: '1500ms' },",
      "  { threshold: 'rate>0', abortOnFail: false, delayAbortEval: '2s' }, { threshold: 'count>=0' }] } };",
      'export default function () {}',
    ]);
    const points = join(dir, 'points.ndjson');
    const result = await runLoadlab([script, '-q', '--summary-mode=disabled', '-o', `json=${points}`]);
    assert.equal(result.code, 0, result.stderr);
    const line = readFileSync(points, 'utf8')
      .split('\n')
      .find((l) => l.includes('"type":"Metric"') && l.includes('"iterations"'));
    // Real k6 v1.3.0 (../shared/tools/k6) wrote this line for the same script.
    assert.equal(
      line,
      '{"type":"Metric","data":{"name":"iterations","type":"counter","contains":"default","thresholds":[{"threshold":"count>0","abortOnFail":true,"delayAbortEval":null},{"threshold":"count>0","abortOnFail":true,"delayAbortEval":"1.5s"},"rate>0","count>=0"],"submetrics":null},"metric":"iterations"}',
    );
  });

  it('an unknown output type stops the run before it starts, with exit 255 as k6 v1.3', async () => {
    const { script } = scriptInTempDir('one.js', ONE_EMPTY_ITERATION);
    const result = await runLoadlab([script, '-q', '-o', 'nope=x']);
    assert.equal(result.code, 255, result.stderr);
    assert.match(result.stderr, /level=error msg="invalid output type 'nope', available types are: /);
  });

  it('--out json into a folder that does not exist stops the run with exit 255 and makes no folder, as k6', async () => {
    const { dir, script } = scriptInTempDir('one.js', ONE_EMPTY_ITERATION);
    const file = join(dir, 'missing', 'points.ndjson');
    const result = await runLoadlab([script, '-q', '-o', `json=${file}`]);
    assert.equal(result.code, 255, result.stderr);
    assert.ok(
      result.stderr.includes(`level=error msg="open ${file}: no such file or directory"`),
      result.stderr,
    );
    assert.equal(existsSync(join(dir, 'missing')), false);
  });

  it('handleSummary files: one that cannot be opened is reported as k6 does, the others are written, exit 0', async () => {
    const { dir, script } = scriptInTempDir('files.js', [
      ...ONE_EMPTY_ITERATION,
      "export function handleSummary() { return { 'missing/a.json': '{}', [__ENV.OK_FILE]: 'written' }; }",
    ]);
    const okFile = join(dir, 'ok.txt');
    const result = await runLoadlab([script, '-q'], { env: { OK_FILE: okFile }, cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.equal(readFileSync(okFile, 'utf8'), 'written');
    assert.equal(existsSync(join(dir, 'missing')), false);
    // k6 v1.3: internal/cmd/run.go handleSummaryResult and consolidateErrorMessage.
    assert.ok(
      result.stderr.includes(
        'level=error msg="failed to handle the end-of-test summary" error="Could not save some summary information:\\n\\t- could not open \'missing/a.json\': open missing/a.json: no such file or directory"',
      ),
      result.stderr,
    );
  });

  it('an exception in handleSummary is logged as itself and the text summary still follows, as k6', async () => {
    const { dir, script } = scriptInTempDir('throws.js', [
      ...ONE_EMPTY_ITERATION,
      "export function handleSummary() { throw new Error('boom in summary'); }",
    ]);
    const result = await runLoadlab([script, '--no-color'], { cwd: dir });
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stderr, /level=error msg="Error: boom in summary\\n\\tat handleSummary /);
    assert.match(result.stdout, /█ TOTAL RESULTS/);
  });

  it('stops gracefully on Ctrl-C, still prints the summary, and exits 105', async () => {
    const { script } = scriptInTempDir('long.js', [
      "import http from 'k6/http';",
      "import { sleep } from 'k6';",
      "export const options = { vus: 2, duration: '60s' };",
      "export default function () { http.get(__ENV.BASE_URL + '/health'); sleep(0.2); }",
    ]);
    const started = Date.now();
    const result = await runLoadlab([script, '--no-color'], {
      env: { BASE_URL: target.url },
      interruptOnceRunningMs: 1500,
    });
    assert.equal(result.code, 105, result.stderr);
    assert.ok(Date.now() - started < 20_000, 'stopped long before the 60 s duration');
    assert.match(result.stdout, /█ TOTAL RESULTS/);
    assert.match(result.stdout, /http_reqs\.+: \d+/);
  });

  const exitCases: [string, number, RegExp][] = [
    ['script-err-init.js', 107, /level=error msg=".*boom in init.*hint="script exception"/],
    ['script-err-iter.js', 0, /level=error msg=".*boom in iteration.*source=stacktrace/],
    ['script-bad-opts.js', 104, /failed parsing threshold expresion's \\"p\(95\)<<1500\\" right hand side/],
    [
      'script-abort.js',
      99,
      /thresholds on metrics 'my_errors' were crossed; at least one has abortOnFail enabled, stopping test prematurely/,
    ],
    [
      '../k6-golden/badmetric.js',
      104,
      /invalid threshold defined on nope; reason: no metric name \\"nope\\" found/,
    ],
    ['../k6-golden/badthr.js', 104, /unsupported aggregation method p on metric of type counter/],
  ];
  // The same assertions on the real k6 when there is one: the recordings are still what it does.
  const engines: ('node' | 'k6')[] = realK6Available() ? ['node', 'k6'] : ['node'];
  for (const [script, code, message] of exitCases)
    for (const engine of engines)
      it(`${script} exits ${code} as k6 does${engine === 'k6' ? ' (real k6, live)' : ''}`, async () => {
        const result = await runLoadlab([`${K6_SAMPLES}/${script}`, '-q', '--no-summary'], {
          engine,
          env: { BASE_URL: target.url },
        });
        assert.equal(result.code, code, result.stderr);
        assert.match(result.stderr, message);
        // k6's flag parser says first that --no-summary is deprecated (output-err-iter.txt, line 1,
        // recorded with both streams together), on stdout: real k6 v1.3 writes it there.
        const k6FirstLine = readFileSync(`${K6_SAMPLES}/output-err-iter.txt`, 'utf8').split('\n')[0];
        assert.equal(result.stdout.split('\n')[0], k6FirstLine);
      });
});
