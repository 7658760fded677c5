import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Sample } from '../contracts.js';
import { MetricsEngine, parseThresholds, ThresholdSyntaxError, toSummaryExport } from './index.js';
import { humanizeBytes, humanizeDuration } from '../summary/humanize.js';
import { renderTextSummary } from '../summary/text-summary.js';
import { TrendSink } from '@loadlab/k6-format/sinks';
import { K6_REFERENCE } from '../../devkit/k6-reference.js';

const REF = K6_REFERENCE;
const pass = JSON.parse(readFileSync(`${REF}/k6-samples/summary-pass.json`, 'utf8'));

const sample = (
  metric: string,
  type: Sample['type'],
  value: number,
  tags: Record<string, string> = {},
  contains: Sample['contains'] = 'default',
): Sample => ({
  metric,
  type,
  contains,
  value,
  tags,
  time: Date.now(),
});

describe('runner metrics', () => {
  describe('thresholds', () => {
    it('parses string and object forms with k6 operators and normalised percentiles', () => {
      const defs = parseThresholds({
        http_req_duration: ['p(95)<1500', 'avg <= 800'],
        cnt: [{ threshold: 'count===3', abortOnFail: true, delayAbortEval: '1s' }],
        'http_req_duration{endpoint:health}': ['p(99.90)!=1'],
      });
      assert.deepEqual(
        defs.map((d) => [d.metricKey, d.aggregation, d.operator, d.value, d.abortOnFail, d.delayAbortEvalMs]),
        [
          ['http_req_duration', 'p(95)', '<', 1500, false, 0],
          ['http_req_duration', 'avg', '<=', 800, false, 0],
          ['cnt', 'count', '==', 3, true, 1000],
          ['http_req_duration{endpoint:health}', 'p(99.9)', '!=', 1, false, 0],
        ],
      );
    });

    it("reports malformed expressions with k6's message (exit 104 material)", () => {
      assert.throws(
        () => parseThresholds({ http_req_duration: ['p(95)<<1500'] }),
        (e: Error) =>
          e instanceof ThresholdSyntaxError &&
          e.message ===
            `failed parsing threshold expresion's "p(95)<<1500" right hand side; reason: strconv.ParseFloat: parsing "<1500": invalid syntax`,
      );
      assert.throws(() => parseThresholds({ x: ['bogus<1'] }), ThresholdSyntaxError);
    });

    it('rejects aggregations that do not fit the metric type, and unknown metrics', () => {
      assert.throws(
        () => new MetricsEngine({ thresholds: parseThresholds({ http_reqs: ['p(95)<100'] }) }),
        /invalid threshold "p\(95\)<100" applied on metric http_reqs; reason: unsupported aggregation method p on metric of type counter\. supported aggregation methods for this metric are: count, rate/,
      );
      const engine = new MetricsEngine({ thresholds: parseThresholds({ nope: ['count>1'] }) });
      assert.throws(
        () => engine.validateAgainst([]),
        /invalid threshold defined on nope; reason: no metric name "nope" found/,
      );
    });

    it('evaluates periodically on non-empty sinks only and finally on everything, with abortOnFail', () => {
      const engine = new MetricsEngine({
        thresholds: parseThresholds({
          my_errors: [{ threshold: 'count<1', abortOnFail: true, delayAbortEval: '1s' }],
          'http_req_duration{endpoint:never}': ['p(95)<1'],
          checks: ['rate>0.9'],
        }),
      });
      engine.add([sample('my_errors', 'counter', 1)]);
      assert.equal(
        engine.evaluate({ final: false, elapsedMs: 500 }).abort,
        false,
        'delayAbortEval holds the abort',
      );
      const late = engine.evaluate({ final: false, elapsedMs: 1500 });
      assert.equal(late.abort, true);
      assert.deepEqual(late.failedMetrics, ['my_errors']);
      const final = engine.evaluate({ final: true, elapsedMs: 2000 });
      assert.equal(
        final.states['http_req_duration{endpoint:never}']!['p(95)<1']!.ok,
        true,
        'empty trend evaluates to 0',
      );
      assert.equal(final.states.checks!['rate>0.9']!.ok, true, 'an empty rate passes');
    });

    it('a declared custom counter that never got a sample fails count>0 at the end, as in k6', () => {
      const engine = new MetricsEngine({
        thresholds: parseThresholds({ completed: ['count>0'], latency: ['p(95)<10'] }),
      });
      engine.validateAgainst([
        { name: 'completed', type: 'counter', contains: 'default' },
        { name: 'latency', type: 'trend', contains: 'time' },
      ]);
      assert.equal(engine.evaluate({ final: false, elapsedMs: 500 }).failedMetrics.length, 0);
      const final = engine.evaluate({ final: true, elapsedMs: 1000 });
      assert.deepEqual(final.failedMetrics, ['completed']);
      assert.equal(final.states.latency!['p(95)<10']!.ok, true, 'an empty trend passes');
      const summary = engine.summaryData({ testRunDurationMs: 1000, isStdOutTTY: false, isStdErrTTY: false });
      assert.deepEqual(summary.metrics.completed?.values, { count: 0, rate: 0 });
      assert.equal(summary.metrics.latency?.contains, 'time');
    });
  });

  describe('sinks and formatting', () => {
    it("computes percentiles with k6's linear interpolation", () => {
      const t = new TrendSink();
      for (const v of [5, 1, 4, 2, 3]) t.add(v);
      assert.equal(t.percentile(0.5), 3);
      assert.equal(t.percentile(0.95), 4.8);
      assert.equal(t.percentile(0.9), 4.6);
      assert.equal(new TrendSink().percentile(0.95), 0);
    });

    it('formats values like summary.js', () => {
      assert.equal(humanizeDuration(0.84139), '841.39µs');
      assert.equal(humanizeDuration(1.8149), '1.81ms');
      assert.equal(humanizeDuration(0), '0s');
      assert.equal(humanizeDuration(65_432), '1m5s');
      assert.equal(humanizeBytes(5712), '5.7 kB');
      assert.equal(humanizeBytes(411_000), '411 kB');
      assert.equal(humanizeBytes(7), '7 B');
    });
  });

  describe('summary data', () => {
    function engineWithRun(): MetricsEngine {
      const engine = new MetricsEngine({
        thresholds: parseThresholds({
          'http_req_duration{endpoint:health}': ['p(95)<500'],
          'http_req_duration{endpoint:never}': ['p(95)<1'],
          checks: ['rate>0.99'],
        }),
      });
      engine.add([
        sample(
          'http_req_duration',
          'trend',
          2,
          { endpoint: 'health', expected_response: 'true', group: '::01_health' },
          'time',
        ),
        sample('checks', 'rate', 1, { check: 'health status 200', group: '::01_health' }),
        sample('checks', 'rate', 1, { check: 'health responds quickly', group: '::01_health' }),
        sample('checks', 'rate', 1, { check: 'users status 200', group: '::02_login::nested' }),
        sample('checks', 'rate', 1, { check: 'static page status 200', group: '' }),
        sample('group_duration', 'trend', 5, { group: '::02_login' }, 'time'),
        sample('http_reqs', 'counter', 1, {}),
      ]);
      engine.evaluate({ final: true, elapsedMs: 1000 });
      return engine;
    }

    it('has the shape of real k6 data: ids, paths, sub-metrics, options, state', () => {
      const data = engineWithRun().summaryData({
        testRunDurationMs: 1000,
        isStdOutTTY: false,
        isStdErrTTY: false,
        setupData: { token: 't' },
      });
      assert.deepEqual(Object.keys(data).sort(), Object.keys(pass).sort());
      assert.equal(data.root_group.id, pass.root_group.id);
      const health = data.root_group.groups.find((g) => g.name === '01_health')!;
      const refHealth = pass.root_group.groups.find((g: { name: string }) => g.name === '01_health');
      assert.equal(health.id, refHealth.id);
      assert.deepEqual(
        health.checks.map((c) => [c.name, c.path, c.id]),
        refHealth.checks.map((c: { name: string; path: string; id: string }) => [c.name, c.path, c.id]),
      );
      const nested = data.root_group.groups.find((g) => g.name === '02_login')!.groups[0]!;
      assert.equal(nested.path, '::02_login::nested');
      for (const key of [
        'http_req_duration{endpoint:health}',
        'http_req_duration{endpoint:never}',
        'http_req_duration{expected_response:true}',
      ]) {
        assert.ok(data.metrics[key], key);
        assert.deepEqual(
          Object.keys(data.metrics[key]!.values).sort(),
          Object.keys(pass.metrics[key].values).sort(),
        );
      }
      assert.deepEqual(data.metrics.checks!.values, { rate: 1, passes: 4, fails: 0 });
      assert.deepEqual(data.options, pass.options);
      assert.deepEqual(data.setup_data, { token: 't' });
    });

    it('exports the old JSON format and renders the k6 text layout', () => {
      const engine = engineWithRun();
      const data = engine.summaryData({ testRunDurationMs: 1000, isStdOutTTY: false, isStdErrTTY: false });
      const exported = toSummaryExport(data) as {
        metrics: Record<string, Record<string, unknown>>;
        root_group: { groups: Record<string, unknown> };
      };
      assert.deepEqual(exported.metrics.checks, {
        value: 1,
        passes: 4,
        fails: 0,
        thresholds: { 'rate>0.99': false },
      });
      assert.ok(exported.root_group.groups['01_health']);
      const text = renderTextSummary(data, {
        mode: 'compact',
        color: false,
        observations: engine.thresholdObservations(),
      });
      assert.match(text, /^\n {2}█ THRESHOLDS \n\n {4}checks\n {4}✓ 'rate>0\.99' rate=100\.00%\n/);
      assert.match(text, /\n {6}\{endpoint:health\}\n|\n {4}http_req_duration\{endpoint:health\}\n/);
      assert.match(text, / {2}█ TOTAL RESULTS \n\n {4}checks_total\.+: 4 +4\/s\n/);
      assert.match(text, /\n {4}HTTP\n {4}http_req_duration\.+: avg=2ms/);
    });
  });
});
