import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { SummaryData } from './summary-data.js';
import { fileTimestamp, normalizePath, scenarioLabel, summaryFiles } from './summary.js';
import { formatDuration, renderSummaryText, thresholdRows, thresholdStatistic } from './summary-text.js';
import { K6_SAMPLES } from '../../devkit/k6-reference.js';

const real = JSON.parse(readFileSync(`${K6_SAMPLES}/summary-pass.json`, 'utf8')) as SummaryData;

describe('k6 summary handler', () => {
  it('names files results/summary-<scenario>-<profile>-<timestamp>.json and latest', () => {
    const files = summaryFiles(
      real,
      { scenario: 'smoke', profile: 'ci' },
      {},
      new Date('2026-11-22T22:55:01.123Z'),
    );
    assert.deepEqual(Object.keys(files).sort(), [
      'results/summary-latest.json',
      'results/summary-smoke-ci-2026-11-22T22-55-01Z.json',
      'stdout',
    ]);
    assert.deepEqual(JSON.parse(files['results/summary-latest.json']!), real);
  });

  it('also writes the path the report runner asks for', () => {
    const files = summaryFiles(
      real,
      { scenario: 's', profile: 'p' },
      { LT_RUN_SUMMARY: 'results/runs/x-s.json' },
      new Date(),
    );
    assert.equal(files['results/runs/x-s.json'], files['results/summary-latest.json']);
  });

  it('writes summary-latest.json once even when LT_RUN_SUMMARY names it', () => {
    for (const spelling of [
      'results/summary-latest.json',
      './results/summary-latest.json',
      'results//summary-latest.json',
    ]) {
      const files = summaryFiles(
        real,
        { scenario: 's', profile: 'p' },
        { LT_RUN_SUMMARY: spelling },
        new Date(0),
      );
      assert.deepEqual(Object.keys(files).sort(), [
        'results/summary-latest.json',
        'results/summary-s-p-1970-01-01T00-00-00Z.json',
        'stdout',
      ]);
    }
    const other = summaryFiles(
      real,
      { scenario: 's', profile: 'p' },
      { LT_RUN_SUMMARY: './results/runs/a.json' },
      new Date(0),
    );
    assert.ok('results/runs/a.json' in other);
    assert.equal(normalizePath('./a/./b//c.json'), 'a/b/c.json');
  });

  it('writes under LT_RESULTS_DIR when set (test:report --results DIR)', () => {
    const files = summaryFiles(
      real,
      { scenario: 's', profile: 'p' },
      { LT_RESULTS_DIR: './out/', LT_RUN_SUMMARY: 'out/summary-latest.json' },
      new Date(0),
    );
    assert.deepEqual(Object.keys(files).sort(), [
      'out/summary-latest.json',
      'out/summary-s-p-1970-01-01T00-00-00Z.json',
      'stdout',
    ]);
  });

  it('writes the engine line run-k6.sh exported beside each summary, for reports of runs without a log', () => {
    const line = 'run-k6: engine node (forced); version loadlab 0.1.0';
    const files = summaryFiles(real, { scenario: 's', profile: 'ci' }, { LT_ENGINE_LINE: line }, new Date(0));
    assert.equal(files['results/summary-latest.engine'], `${line}\n`);
    assert.equal(files['results/summary-s-ci-1970-01-01T00-00-00Z.engine'], `${line}\n`);
    const none = summaryFiles(real, { scenario: 's', profile: 'ci' }, {}, new Date(0));
    assert.deepEqual(
      Object.keys(none).filter((f) => f.endsWith('.engine')),
      [],
    );
  });

  it('names every file after LT_INSTANCE when set, so pods sharing a volume keep their own', () => {
    const at = new Date('2026-11-22T22:55:01Z');
    const pod = (instance: string) =>
      Object.keys(
        summaryFiles(
          real,
          { scenario: 'smoke', profile: 'load' },
          { LT_INSTANCE: instance, LT_RUN_SUMMARY: 'shared/run.json' },
          at,
        ),
      ).sort();
    assert.deepEqual(pod('loadlab-smoke-1-x7k2p'), [
      'results/summary-latest-loadlab-smoke-1-x7k2p.json',
      'results/summary-smoke-load-2026-11-22T22-55-01Z-loadlab-smoke-1-x7k2p.json',
      'shared/run-loadlab-smoke-1-x7k2p.json',
      'stdout',
    ]);
    const files = [...pod('pod-1'), ...pod('pod-2')].filter((f) => f !== 'stdout');
    assert.equal(new Set(files).size, 6, 'no file name shared by the two pods');
    assert.deepEqual(pod('a b/c').slice(0, 1), ['results/summary-latest-a_b_c.json']);
    assert.deepEqual(pod(' '), [
      'results/summary-latest.json',
      'results/summary-smoke-load-2026-11-22T22-55-01Z.json',
      'shared/run.json',
      'stdout',
    ]);
  });

  it('labels with LT_SCENARIO when set, made safe for file names', () => {
    assert.equal(scenarioLabel('smoke', {}), 'smoke');
    assert.equal(scenarioLabel('smoke', { LT_SCENARIO: 'my run/1' }), 'my_run_1');
    assert.equal(fileTimestamp(new Date(0)), '1970-01-01T00-00-00Z');
  });
});

describe('k6 summary text', () => {
  it('reads the statistic a threshold is judged on', () => {
    assert.equal(thresholdStatistic('p(95)<1500'), 'p(95)');
    assert.equal(thresholdStatistic('p( 99.9 ) < 1'), 'p(99.9)');
    assert.equal(thresholdStatistic('rate<0.01'), 'rate');
    assert.equal(thresholdStatistic('count<1000'), 'count');
  });

  it('lists every threshold of a real k6 run with its observed value', () => {
    const rows = thresholdRows(real);
    const expected = Object.values(real.metrics).reduce(
      (n, m) => n + Object.keys(m.thresholds ?? {}).length,
      0,
    );
    assert.equal(rows.length, expected);
    const p95 = rows.find((r) => r.metric === 'http_req_duration' && r.expression === 'p(95)<1500');
    assert.equal(p95?.observed, formatDuration(real.metrics.http_req_duration!.values['p(95)']!));
    assert.equal(formatDuration(0.9543), '954µs');
    assert.equal(formatDuration(1234.5), '1.23s');
    assert.equal(
      rows.find((r) => r.metric === 'checks')?.observed,
      `${(real.metrics.checks!.values.rate! * 100).toFixed(2)}%`,
    );
  });

  it('says "no samples" for a threshold on a metric k6 reports as empty zeros', () => {
    const empty: SummaryData = structuredClone(real);
    empty.metrics['http_req_duration{endpoint:never}'] = {
      type: 'trend',
      contains: 'time',
      values: { avg: 0, min: 0, med: 0, max: 0, 'p(90)': 0, 'p(95)': 0 },
      thresholds: { 'p(95)<500': { ok: true } },
    };
    empty.metrics.browser_http_req_failed = {
      type: 'rate',
      contains: 'default',
      values: { rate: 0, passes: 0, fails: 0 },
      thresholds: { 'rate<0.01': { ok: true } },
    };
    const rows = thresholdRows(empty);
    assert.equal(rows.find((r) => r.metric === 'http_req_duration{endpoint:never}')?.observed, 'no samples');
    assert.equal(rows.find((r) => r.metric === 'browser_http_req_failed')?.observed, 'no samples');
    assert.notEqual(rows.find((r) => r.metric === 'http_req_duration')?.observed, 'no samples');
  });

  it('shows PASS, FAIL, checks by group and key metrics', () => {
    const text = renderSummaryText(real, { scenario: 'smoke', profile: 'smoke' });
    assert.match(text, /loadlab smoke \(profile smoke\) ran 5\.0s: PASS/);
    assert.match(text, /█ 01_health\n\s+✓ health status 200 {2}\(23 passed, 0 failed, 100\.0%\)/);
    assert.match(text, /█ nested/);
    assert.match(text, /http_reqs\s+\d+\s+rate=[\d.]+\/s/);
    const failing = structuredClone(real);
    failing.metrics.checks!.thresholds = { 'rate>0.99': { ok: false } };
    assert.match(renderSummaryText(failing, { scenario: 's', profile: 'p' }), /: FAIL\n[\s\S]*✗ checks/);
  });

  it('shows the browser metrics and web vitals of a real k6 browser run, and none for an API run', () => {
    const browserRun = JSON.parse(readFileSync(`${K6_SAMPLES}/summary-browser.json`, 'utf8')) as SummaryData;
    const text = renderSummaryText(browserRun, { scenario: 'browser-login', profile: 'smoke' });
    const lcp = browserRun.metrics.browser_web_vital_lcp!;
    assert.match(text, new RegExp(`browser_web_vital_lcp\\s+avg=${formatDuration(lcp.values.avg!)}`));
    assert.match(text, /browser_web_vital_cls\s+avg=[\d.]+\s+max=/);
    assert.match(text, /browser_http_req_failed\s+rate=\d/);
    assert.doesNotMatch(renderSummaryText(real, { scenario: 's', profile: 'p' }), /browser_/);
  });
});
