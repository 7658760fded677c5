// The line between what the load decides and what the engines decide, on diffShapes() lines.
import assert from 'node:assert/strict';
import { pointLine } from '@loadlab/k6-format/ndjson';
import { crossedTimeThresholds, failedOnTimingOnly, loadDecided } from './load-decided.js';
import { diffShapes, ndjsonShape, summaryShape, type RunShape, type SummaryData } from './run-shape.js';

const data = (durationOk: boolean, failedOk = true): SummaryData => ({
  root_group: { name: '', path: '', id: '', groups: [], checks: [] },
  options: { summaryTrendStats: ['p(95)'], summaryTimeUnit: '', noColor: false },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1000 },
  metrics: {
    'http_req_duration{endpoint:owners}': {
      type: 'trend',
      contains: 'time',
      values: { 'p(95)': durationOk ? 900 : 2310 },
      thresholds: { 'p(95)<1500': { ok: durationOk } },
    },
    http_req_failed: {
      type: 'rate',
      contains: 'default',
      values: { rate: 0 },
      thresholds: { 'rate<0.01': { ok: failedOk } },
    },
  },
});

const shape = (code: number, d: SummaryData): RunShape => ({
  exitCode: code,
  ...summaryShape(d, { counts: true }),
  files: [],
  ndjsonTags: {},
  ndjsonMetrics: {},
  influx: {},
});

describe('side by side: what the load decides', () => {
  it('real k6 crossing a latency threshold on a busy machine is the load, not the engine', () => {
    const k6 = { code: 99, data: data(false) };
    const node = { code: 0, data: data(true) };
    const differences = diffShapes(shape(k6.code, k6.data), shape(node.code, node.data));
    assert.equal(differences.length, 2, differences.join('\n'));
    assert.deepEqual(
      differences.filter((d) => !loadDecided(d, { k6, node })),
      [],
    );
    assert.equal(failedOnTimingOnly(99, k6.data), true);
    assert.deepEqual(crossedTimeThresholds(k6.data), ['http_req_duration{endpoint:owners}: p(95)<1500']);
  });

  it('a verdict on errors or checks that differs is the engines, and so is its exit code', () => {
    const k6 = { code: 99, data: data(true, false) };
    const node = { code: 0, data: data(true) };
    const differences = diffShapes(shape(k6.code, k6.data), shape(node.code, node.data));
    assert.deepEqual(
      differences.filter((d) => !loadDecided(d, { k6, node })),
      ['exit code: k6=99 runner=0', 'metric http_req_failed: threshold rate<0.01 ok k6=false runner=true'],
    );
    assert.equal(failedOnTimingOnly(99, k6.data), false);
    // A crash is never the load's doing, nor an exit 99 with nothing crossed.
    assert.equal(loadDecided('exit code: k6=107 runner=0', { k6: { code: 107 }, node }), false);
    assert.equal(failedOnTimingOnly(99, data(true)), false);
  });

  it("a web vital's rating is the bucket of its time: its value is not compared, its presence is", () => {
    const point = (tags: Record<string, string>) =>
      pointLine('browser_web_vital_fcp', '2026-11-22T12:54:27.075955849Z', 1, tags);
    const k6 = ndjsonShape(point({ rating: 'needs-improvement', url: 'x' }), { counts: true });
    const node = ndjsonShape(point({ rating: 'good', url: 'y' }), { counts: true });
    assert.deepEqual(k6, node);
    assert.notDeepEqual(ndjsonShape(point({ url: 'y' }), { counts: true }), k6);
    // Other tag values still are.
    assert.notDeepEqual(
      ndjsonShape(point({ rating: 'good', status: '200' }), { counts: true }),
      ndjsonShape(point({ rating: 'good', status: '500' }), { counts: true }),
    );
  });
});
