import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compareScenario, NOISE } from './compare.js';
import type { ScenarioReport } from './model.js';
import { findPreviousRun, groupInputs, makeRunId } from './runs.js';
import { scenarioReport } from './test-helpers.js';

function scenario(p95: number, errorRate: number, requests = 100, endpointP95 = p95): ScenarioReport {
  return scenarioReport({
    scenario: 's',
    totals: { requests, rps: requests / 10, errorRate, p95, avg: p95 / 2 },
    endpoints: [
      {
        name: 'GET /health',
        count: requests,
        rps: requests / 10,
        errorRate,
        avg: 1,
        p50: 1,
        p90: 1,
        p95: endpointP95,
        p99: endpointP95,
        max: endpointP95,
      },
    ],
  });
}

describe('comparison noise rule', () => {
  const flagOf = (c: ReturnType<typeof compareScenario>, label: string) =>
    c.metrics.find((r) => r.label === label)?.flag;

  it('flags latency only beyond both the relative and the absolute floor', () => {
    assert.equal(
      flagOf(compareScenario(scenario(13, 0), scenario(10, 0), 'r0'), 'http_req_duration p(95)'),
      '',
      '3 ms is under the 5 ms floor',
    );
    assert.equal(
      flagOf(compareScenario(scenario(100, 0), scenario(90, 0), 'r0'), 'http_req_duration p(95)'),
      '',
      '11 % is under 20 %',
    );
    const worse = compareScenario(scenario(130, 0), scenario(100, 0), 'r0');
    assert.equal(flagOf(worse, 'http_req_duration p(95)'), 'worse');
    assert.equal(worse.metrics[0]?.delta, 30);
    assert.equal(
      flagOf(compareScenario(scenario(70, 0), scenario(100, 0), 'r0'), 'http_req_duration p(95)'),
      'better',
    );
  });

  it('flags error rates from one percentage point', () => {
    assert.equal(
      flagOf(compareScenario(scenario(10, 0.005), scenario(10, 0), 'r0'), 'http_req_failed rate'),
      '',
    );
    assert.equal(
      flagOf(compareScenario(scenario(10, NOISE.ratePoints), scenario(10, 0), 'r0'), 'http_req_failed rate'),
      'worse',
    );
  });

  it('flags nothing with too few requests, but still shows deltas', () => {
    const c = compareScenario(scenario(500, 0.5, 10), scenario(10, 0, 10), 'r0');
    assert.equal(c.enoughData, false);
    assert.ok(c.metrics.every((r) => r.flag === ''));
    assert.equal(c.metrics[0]?.delta, 490);
  });

  it('compares endpoints by name', () => {
    const c = compareScenario(scenario(10, 0, 100, 200), scenario(10, 0, 100, 100), 'r0');
    assert.equal(c.endpoints[0]?.rows.find((r) => r.label === 'p95')?.flag, 'worse');
  });
});

describe('run files', () => {
  it('names runs with sortable UTC ids', () => {
    assert.equal(makeRunId(new Date('2026-11-22T23:05:12.345Z')), '20261122T230512Z');
  });

  it('pairs summary and series files into scenarios', () => {
    const inputs = groupInputs([
      'r/20261122T230512Z-smoke.json',
      'r/20261122T230512Z-smoke.ndjson',
      'x/other.json',
      'x/more.json',
      'x/pts.ndjson.gz',
    ]);
    assert.deepEqual(inputs, [
      {
        scenario: 'smoke',
        runId: '20261122T230512Z',
        summaryPath: 'r/20261122T230512Z-smoke.json',
        seriesPath: 'r/20261122T230512Z-smoke.ndjson',
      },
      { scenario: 'other', runId: undefined, summaryPath: 'x/other.json' },
      { scenario: 'more', runId: undefined, summaryPath: 'x/more.json' },
      { scenario: 'pts', runId: undefined, seriesPath: 'x/pts.ndjson.gz' },
    ]);
    // A single summary and a single series are one run whatever their names.
    assert.deepEqual(groupInputs(['summary.json', 'points.ndjson']), [
      { scenario: 'summary', runId: undefined, summaryPath: 'summary.json', seriesPath: 'points.ndjson' },
    ]);
    assert.throws(() => groupInputs(['a.txt']), /not a summary/);
  });

  it('finds the newest older run that has a summary', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loadlab-runs-'));
    try {
      for (const f of [
        '20260101T000000Z-a.json',
        '20260102T000000Z-a.json',
        '20260102T000000Z-a.ndjson',
        '20260103T000000Z-a.ndjson',
        '20260104T000000Z-a.json',
      ])
        await writeFile(join(dir, f), '{}');
      const prev = await findPreviousRun(dir, '20260104T000000Z');
      assert.equal(prev?.runId, '20260102T000000Z', 'the 03 run has no summary');
      assert.equal(prev?.inputs[0]?.seriesPath, join(dir, '20260102T000000Z-a.ndjson'));
      assert.equal(await findPreviousRun(dir, '20260101T000000Z'), undefined);
      assert.equal(await findPreviousRun(join(dir, 'missing'), '2027'), undefined);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
