// k6's --summary-export file of a real k6 v1.3 run (k6-golden/export.json) read as the handleSummary
// data k6 handed to handleSummary for the same script (k6-golden/hs_data.json).
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { K6_GOLDEN } from '../devkit/k6-reference.js';
import { ReportInputError } from './errors.js';
import { flattenChecks, parseSummary, summaryThresholds } from './summary.js';

const read = (name: string) => readFileSync(`${K6_GOLDEN}/${name}`, 'utf8');

describe('report: k6 --summary-export files', () => {
  const exported = parseSummary(read('export.json'), 'export.json');
  const data = parseSummary(read('hs_data.json'), 'hs_data.json');

  it('gives every threshold the verdict handleSummary data gives it (the export says failed, not ok)', () => {
    const sort = (rows: ReturnType<typeof summaryThresholds>) =>
      [...rows].sort((a, b) => `${a.metric} ${a.source}`.localeCompare(`${b.metric} ${b.source}`));
    assert.deepEqual(sort(summaryThresholds(exported)), sort(summaryThresholds(data)));
    assert.ok(
      summaryThresholds(exported).some((t) => !t.ok),
      'the sample has crossed thresholds',
    );
  });

  // Two runs of the same script: timings differ, counts do not.
  it("has the same metrics with the same types, statistics and counts (a rate's value is its rate again)", () => {
    assert.deepEqual(Object.keys(exported.metrics).sort(), Object.keys(data.metrics).sort());
    for (const [name, metric] of Object.entries(data.metrics)) {
      const got = exported.metrics[name]!;
      assert.equal(got.type, metric.type, name);
      assert.deepEqual(Object.keys(got.values).sort(), Object.keys(metric.values).sort(), name);
      for (const key of ['count', 'passes', 'fails'])
        if (key in metric.values) assert.equal(got.values[key], metric.values[key], `${name} ${key}`);
    }
    assert.equal(exported.metrics.checks?.values.rate, 0.8);
    assert.equal(exported.metrics.http_req_duration?.contains, 'time');
    assert.equal(exported.metrics.data_sent?.contains, 'data');
  });

  it('has the same checks under the same group paths', () => {
    assert.deepEqual(flattenChecks(exported.root_group), flattenChecks(data.root_group));
  });

  it('rebuilds the run duration from a counter, within the rounding of its rate', () => {
    const want = data.state.testRunDurationMs;
    assert.ok(
      Math.abs(exported.state.testRunDurationMs - want) / want < 0.05,
      String(exported.state.testRunDurationMs),
    );
  });

  it('refuses a metric whose values fit no k6 type, in one line', () => {
    assert.throws(
      () => parseSummary(JSON.stringify({ metrics: { odd: { x: 1 } } }), 'odd.json'),
      (e: Error) =>
        e instanceof ReportInputError &&
        /odd\.json: metric odd has values of no k6 metric type/.test(e.message),
    );
  });
});
