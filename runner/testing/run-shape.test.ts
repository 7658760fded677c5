// The comparison the side-by-side tests rely on: each kind of difference is found and named.
import assert from 'node:assert/strict';
import { metricLine, pointLine } from '@loadlab/k6-format/ndjson';
import {
  diffShapes,
  lineProtocolShape,
  ndjsonShape,
  normalizeFileName,
  summaryShape,
  type RunShape,
} from './run-shape.js';
import type { SummaryData } from '@loadlab/k6-format/summary';
import { fullSummaryShape } from './summary-text-shape.js';

const DATA: SummaryData = {
  metrics: {
    http_reqs: { type: 'counter', contains: 'default', values: { count: 4, rate: 1 } },
    checks: {
      type: 'rate',
      contains: 'default',
      values: { rate: 1, passes: 4, fails: 0 },
      thresholds: { 'rate>0.99': { ok: true } },
    },
    data_sent: { type: 'counter', contains: 'data', values: { count: 123, rate: 1 } },
  },
  root_group: {
    name: '',
    path: '',
    id: 'root',
    groups: [
      {
        name: 'g',
        path: '::g',
        id: 'g',
        groups: [],
        checks: [{ name: 'ok', path: '::g::ok', id: 'ok', passes: 4, fails: 0 }],
      },
    ],
    checks: [],
  },
  options: { summaryTrendStats: ['avg'], summaryTimeUnit: '', noColor: true },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1 },
};

function shapeOf(data: SummaryData, extra: Partial<RunShape> = {}): RunShape {
  return {
    exitCode: 0,
    ...summaryShape(data, { counts: true }),
    files: [],
    ndjsonMetrics: {},
    ndjsonTags: {},
    influx: {},
    ...extra,
  };
}

describe('run-shape: what two engines must agree on', () => {
  it('finds nothing between a run and itself', () => {
    assert.deepEqual(diffShapes(shapeOf(DATA), shapeOf(DATA)), []);
  });

  it('names the metric and field of each summary difference', () => {
    const other = structuredClone(DATA);
    other.metrics.http_reqs!.type = 'trend';
    other.metrics.http_reqs!.values.count = 5;
    other.metrics.checks!.thresholds!['rate>0.99']!.ok = false;
    delete other.metrics.data_sent;
    other.root_group.groups[0]!.checks[0]!.fails = 1;
    assert.deepEqual(diffShapes(shapeOf(DATA, { exitCode: 0 }), shapeOf(other, { exitCode: 99 })), [
      'exit code: k6=0 runner=99',
      'metric checks: threshold rate>0.99 ok k6=true runner=false',
      'metric data_sent: only on k6',
      'metric http_reqs: type k6=counter runner=trend',
      'metric http_reqs: count k6=4 runner=5',
      'check ::g :: ok: passes/fails k6=4/0 runner=4/1',
    ]);
  });

  it('compares NDJSON Metric lines, tag keys and stable tag values', () => {
    const time = '2026-11-22T12:54:27.075955849Z';
    const k6 = [
      metricLine('http_reqs', 'counter', 'default'),
      pointLine('http_reqs', time, 1, { method: 'GET', status: '200', url: 'u1', vu: '1' }),
    ].join('');
    const runner = [
      metricLine('http_reqs', 'counter', 'data'),
      pointLine('http_reqs', time, 1, { method: 'GET', status: '201', url: 'u2', vu: '2' }),
    ].join('');
    const a = shapeOf(DATA, ndjsonShape(k6, { counts: true }));
    const b = shapeOf(DATA, ndjsonShape(runner, { counts: true }));
    assert.deepEqual(diffShapes(a, b), [
      'NDJSON metric http_reqs: Metric line k6=counter default [] runner=counter data []',
      'NDJSON points of http_reqs: tags: method=GET,status=200,url,vu only on k6',
      'NDJSON points of http_reqs: tags: method=GET,status=201,url,vu only on runner',
    ]);
    // Without counts (random picks), only the keys.
    assert.deepEqual(ndjsonShape(k6, { counts: false }).ndjsonTags, { http_reqs: ['method,status,url,vu'] });
  });

  it('reads line protocol measurements, tag keys and field keys, escapes included', () => {
    const lp = [
      'http_reqs,method=GET,name=a\\ b\\,c,status=200 url="http://x/a b",value=1 1000',
      'checks,check=ok value=1 1001',
    ].join('\n');
    assert.deepEqual(lineProtocolShape(lp), {
      http_reqs: ['tags: method,name,status | fields: url,value'],
      checks: ['tags: check | fields: value'],
    });
    const a = shapeOf(DATA, { influx: lineProtocolShape(lp) });
    const b = shapeOf(DATA, { influx: lineProtocolShape('checks value=1 1') });
    assert.deepEqual(diffShapes(a, b), [
      'InfluxDB measurement checks: tags: check | fields: value only on k6',
      'InfluxDB measurement checks: tags:  | fields: value only on runner',
      'InfluxDB measurement http_reqs: only on k6',
    ]);
  });

  it('replaces the timestamps of summary file names', () => {
    assert.equal(
      normalizeFileName('summary-e2e-smoke-2026-11-24T18-52-27Z.json'),
      'summary-e2e-smoke-<ts>.json',
    );
  });
});

describe('summary-text-shape: the sections of k6 v1 text summaries', () => {
  it('reads sections, sorted checks (thresholds without what they observed) and metric blocks', () => {
    const text = [
      '  █ THRESHOLDS ',
      '    http_req_duration',
      "    ✓ 'p(95)<5000' p(95)=3.46ms",
      '  █ TOTAL RESULTS ',
      '    ✗ other 200',
      '      ↳  0% — ✓ 0 / ✗ 1',
      '    ✓ health 200',
      '    HTTP',
      '    http_req_duration..............: avg=3.65ms   min=1.03ms',
      '      { expected_response:true }...: avg=3.65ms',
      '    ↳ GROUP: first ',
      '      EXECUTION',
      '      iterations.................: 2      100.67/s',
    ].join('\n');
    assert.deepEqual(fullSummaryShape(text), [
      { heading: '█ THRESHOLDS', depth: 2, checks: ["✓ 'p(95)<5000'"], metrics: [] },
      {
        heading: '█ TOTAL RESULTS',
        depth: 2,
        checks: ['✓ health 200', '✗ other 200'],
        metrics: ['HTTP http_req_duration', 'HTTP { expected_response:true }'],
      },
      { heading: '↳ GROUP: first', depth: 4, checks: [], metrics: ['EXECUTION iterations'] },
    ]);
  });
});
