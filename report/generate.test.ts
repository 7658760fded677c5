import assert from 'node:assert/strict';
import { readFileSync, createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { generateReports } from './generate.js';
import { buildReport, buildScenarioReport } from './model.js';
import { duration } from './render/format.js';
import { renderMarkdown } from './render/markdown.js';
import { ReportInputError } from './errors.js';
import { percentileOfSorted } from '@loadlab/k6-format/percentile';
import { K6_SAMPLES } from '../devkit/k6-reference.js';

const SAMPLES = K6_SAMPLES;
const SUMMARY = join(SAMPLES, 'summary-pass.json');
const POINTS = join(SAMPLES, 'points-head.ndjson');

interface Point {
  type: string;
  metric: string;
  data: { value: number; tags: Record<string, string> };
}
// An independent, naive reading of the sample file to check the streaming aggregator against.
const points = readFileSync(POINTS, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Point)
  .filter((p) => p.type === 'Point');
const summary = JSON.parse(readFileSync(SUMMARY, 'utf8'));

describe('report generator on real k6 outputs', () => {
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-report-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('shows every threshold with the observed value from the summary', async () => {
    const s = await buildScenarioReport({ scenario: 'sample', summaryPath: SUMMARY, seriesPath: POINTS });
    const expected = Object.entries(summary.metrics).flatMap(([k, m]) =>
      Object.keys((m as { thresholds?: object }).thresholds ?? {}).map((src) => `${k} ${src}`),
    );
    assert.deepEqual(s.thresholds.map((t) => `${t.metric} ${t.source}`).sort(), expected.sort());
    const health = s.thresholds.find((t) => t.metric === 'http_req_duration{endpoint:health}');
    assert.equal(health?.observed, summary.metrics['http_req_duration{endpoint:health}'].values['p(95)']);
    assert.equal(health?.unit, 'ms');
    assert.equal(s.thresholds.find((t) => t.metric === 'queue_depth')?.observed, 4);
    assert.equal(s.passed, true);
  });

  it('shows rates as percentages with counts and says "no samples" instead of k6\'s zeros', async () => {
    const s = await buildScenarioReport({ scenario: 'sample', summaryPath: SUMMARY, seriesPath: POINTS });
    const row = (metric: string) => s.thresholds.find((t) => t.metric === metric);
    const failedRate = summary.metrics.http_req_failed.values;
    assert.deepEqual(
      { type: row('http_req_failed')?.type, samples: row('http_req_failed')?.samples },
      { type: 'rate', samples: failedRate.passes + failedRate.fails },
    );
    // The real k6 summary reports the never-requested endpoint as p(95)=0; the report must not.
    const never = row('http_req_duration{endpoint:never}');
    assert.equal(never?.samples, 0);
    assert.equal(never?.ok, true, "k6 passes an empty metric; the verdict is k6's");
    assert.equal(row('http_req_duration{endpoint:health}')?.samples, undefined, 'real samples: not empty');
    const md = renderMarkdown(buildReport([s]));
    // k6's verdict stays (the scenario passes), but the row says no data and the summary counts it.
    assert.match(md, /\| http_req_duration\{endpoint:never\} \| p\(95\)<1 \| no samples \| ⚪ no data \|/);
    assert.match(md, /^# Load test report — PASS\n/);
    assert.equal(
      md.match(/_1 threshold had no samples: k6 passes it on an empty metric; shown as no data\._/g)?.length,
      2,
    );
    assert.match(md, /\| checks \| rate>0\.99 \| 100\.00 % \(147\/147\) \| ✅ PASS \|/);
    assert.match(md, /\| login_errors \| rate<0\.01 \| 0\.00 % \(0\/23\) \| ✅ PASS \|/);
    // A counter's rate is per second, not a fraction: it keeps its plain number.
    assert.match(md, /\| degraded_responses \| count<1000 \| 23 \| ✅ PASS \|/);
  });

  it('formats run durations without "60s" carry errors', () => {
    assert.equal(duration(119_600), '2m0s');
    assert.equal(duration(59_960), '1m0s');
    assert.equal(duration(59_900), '59.9s');
    assert.equal(duration(425_000), '7m5s');
  });

  it('lists checks with their group paths', async () => {
    const s = await buildScenarioReport({ scenario: 'sample', summaryPath: SUMMARY });
    assert.equal(s.checks.length, 7);
    assert.deepEqual(
      s.checks.find((c) => c.name === 'users status 200'),
      { group: '::02_login::nested', name: 'users status 200', passes: 23, fails: 0 },
    );
    assert.equal(s.checks.filter((c) => c.group === '').length, 2);
  });

  it('builds the per-endpoint table and status breakdown from the NDJSON', async () => {
    const s = await buildScenarioReport({ scenario: 'sample', summaryPath: SUMMARY, seriesPath: POINTS });
    const names = new Set(points.filter((p) => p.metric === 'http_reqs').map((p) => p.data.tags.name));
    assert.deepEqual(new Set(s.endpoints.map((e) => e.name)), names);
    for (const name of names) {
      const row = s.endpoints.find((e) => e.name === name);
      const durations = points
        .filter((p) => p.metric === 'http_req_duration' && p.data.tags.name === name)
        .map((p) => p.data.value)
        .sort((a, b) => a - b);
      const failed = points.filter((p) => p.metric === 'http_req_failed' && p.data.tags.name === name);
      assert.equal(
        row?.count,
        points.filter((p) => p.metric === 'http_reqs' && p.data.tags.name === name).length,
        name,
      );
      assert.equal(row?.p95, percentileOfSorted(durations, 0.95));
      assert.equal(row?.max, durations.at(-1));
      assert.equal(row?.errorRate, failed.filter((p) => p.data.value !== 0).length / failed.length);
    }
    assert.equal(s.endpoints.find((e) => e.name === 'GET /fail')?.errorRate, 1);
    const statuses = Object.fromEntries(s.statuses.map((r) => [r.key, r.count]));
    assert.equal(
      statuses['500'],
      points.filter((p) => p.metric === 'http_reqs' && p.data.tags.status === '500').length,
    );
    assert.equal(s.errors[0]?.key, 'HTTP 500 (error_code 1500)');
  });

  it('builds 1 s time series whose request counts add up to the file', async () => {
    const s = await buildScenarioReport({ scenario: 'sample', summaryPath: SUMMARY, seriesPath: POINTS });
    const series = s.series;
    assert.ok(series && series.t.length >= 1);
    assert.equal(
      series.rps.reduce((a, b) => a + b, 0),
      points.filter((p) => p.metric === 'http_reqs').length,
    );
    assert.equal(
      series.errors.reduce((a, b) => a + b, 0),
      points.filter((p) => p.metric === 'http_req_failed' && p.data.value).length,
    );
    for (let i = 1; i < series.t.length; i++)
      assert.equal((series.t[i] as number) - (series.t[i - 1] as number), 1);
    assert.deepEqual(
      s.latencyLimits.map((l) => l.value).sort((a, b) => a - b),
      [800, 1500],
    );
  });

  it('computes a threshold statistic the summary lacks (p(99)) from the series', async () => {
    const modified = structuredClone(summary);
    modified.metrics['http_req_duration{endpoint:health}'].thresholds['p(99)<2'] = { ok: true };
    const path = join(dir, 'p99.json');
    await writeFile(path, JSON.stringify(modified));
    const s = await buildScenarioReport({ scenario: 'x', summaryPath: path, seriesPath: POINTS });
    const health = points
      .filter((p) => p.metric === 'http_req_duration' && p.data.tags.endpoint === 'health')
      .map((p) => p.data.value)
      .sort((a, b) => a - b);
    assert.ok(health.length > 0);
    assert.equal(
      s.thresholds.find((t) => t.source === 'p(99)<2')?.observed,
      percentileOfSorted(health, 0.99),
    );
    // Without the series the value is unknown, and the report says so rather than inventing one.
    const bare = await buildScenarioReport({ scenario: 'x', summaryPath: path });
    assert.equal(bare.thresholds.find((t) => t.source === 'p(99)<2')?.observed, undefined);
  });

  it('reads gzipped NDJSON like plain NDJSON', async () => {
    const gz = join(dir, 'points.ndjson.gz');
    await pipeline(createReadStream(POINTS), createGzip(), createWriteStream(gz));
    const a = await buildScenarioReport({ scenario: 's', summaryPath: SUMMARY, seriesPath: POINTS });
    const b = await buildScenarioReport({ scenario: 's', summaryPath: SUMMARY, seriesPath: gz });
    assert.deepEqual(b.endpoints, a.endpoints);
  });

  it('writes Markdown, HTML and JUnit with the expected content', async () => {
    const out = join(dir, 'out');
    const g = await generateReports({
      inputs: [{ scenario: 'sample', summaryPath: SUMMARY, seriesPath: POINTS }],
      outDir: out,
    });
    const md = await readFile(g.files.markdown, 'utf8');
    assert.match(md, /^# Load test report — PASS/);
    assert.match(md, /\| ::02_login::nested \| users status 200 \| 23 \| 0 \|/);
    assert.match(md, /\| http_req_duration\{endpoint:health\} \| p\(95\)<500 \| 0\.86 ms \| ✅ PASS \|/);
    assert.match(md, /\| GET \/fail \| 5 \| [\d.]+ \| 100\.00 % \|/);
    const junit = await readFile(g.files.junit, 'utf8');
    assert.equal((junit.match(/<testcase /g) ?? []).length, 11 + 7);
    assert.match(junit, /name="http_req_duration: p\(95\)&lt;1500"/);
    assert.match(junit, /<testsuites name="Load test report" tests="18" failures="0">/);
    const html = await readFile(g.files.html, 'utf8');
    assert.match(html, /<title>Load test report — PASS<\/title>/);
    assert.doesNotMatch(html, /<script[^>]+src=|<link[^>]+href=/, 'no external resources');
    assert.match(html, /var uPlot=/);
  });

  it('marks a crossed threshold and a failed run as FAIL everywhere', async () => {
    const modified = structuredClone(summary);
    modified.metrics.http_req_failed.thresholds['rate<0.5'].ok = false;
    const path = join(dir, 'fail.json');
    await writeFile(path, JSON.stringify(modified));
    const out = join(dir, 'fail-out');
    const g = await generateReports({
      inputs: [
        { scenario: 'crossed', summaryPath: path },
        { scenario: 'crashed', exitCode: 107 },
      ],
      outDir: out,
    });
    assert.equal(g.report.passed, false);
    assert.deepEqual(
      g.report.scenarios.map((s) => s.passed),
      [false, false],
    );
    const md = await readFile(g.files.markdown, 'utf8');
    assert.match(md, /^# Load test report — FAIL/);
    assert.match(md, /\| http_req_failed \| rate<0\.5 \| 21\.10 % \(23\/109\) \| ❌ FAIL \|/);
    assert.match(md, /engine exited with code 107/);
    const junit = await readFile(g.files.junit, 'utf8');
    assert.match(
      junit,
      /<failure message="crossed: observed 21\.10 % \(23\/109\) for rate&lt;0\.5" type="threshold"\/>/,
    );
    assert.match(junit, /failures="3"/); // the threshold, the missing summary, the exit code
  });

  it('rejects bad input with one-line reasons', async () => {
    const notJson = join(dir, 'bad.json');
    await writeFile(notJson, '{nope');
    await assert.rejects(
      buildScenarioReport({ scenario: 'x', summaryPath: notJson }),
      (e: Error) => e instanceof ReportInputError && /not JSON/.test(e.message),
    );
    const noValues = join(dir, 'no-values.json');
    await writeFile(noValues, JSON.stringify({ metrics: { a: { type: 'counter' } }, state: {} }));
    await assert.rejects(buildScenarioReport({ scenario: 'x', summaryPath: noValues }), /no "values"/);
    await assert.rejects(
      buildScenarioReport({ scenario: 'x', summaryPath: join(dir, 'missing.json') }),
      /cannot read .*ENOENT/,
    );
  });
});
