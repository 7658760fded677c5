import assert from 'node:assert/strict';
import { arrivalsBy } from './index.js';
import { rampingVuChanges } from './schedule.js';

describe('runner executor schedules', () => {
  it('starts ramping VUs when k6 does (golden: 0->4 over 2s from startVUs 1 at 0, 667, 1334, 2001 ms)', () => {
    const changes = rampingVuChanges(1, [{ durationMs: 2000, target: 4 }]);
    assert.deepEqual(
      changes.map((c) => [Math.round(c.atMs), c.count]),
      [
        [0, 1],
        [667, 2],
        [1333, 3],
        [2000, 4],
      ],
    );
  });

  it('ramps down highest VU first and keeps plateaus', () => {
    const changes = rampingVuChanges(0, [
      { durationMs: 1000, target: 2 },
      { durationMs: 1000, target: 2 },
      { durationMs: 1000, target: 0 },
    ]);
    assert.deepEqual(
      changes.map((c) => [c.atMs, c.count]),
      [
        [0, 0],
        [500, 1],
        [1000, 2],
        [2500, 1],
        [3000, 0],
      ],
    );
  });

  it('spaces constant arrivals by timeUnit/rate, the first at 0, none at the end', () => {
    const s = {
      executor: 'constant-arrival-rate' as const,
      rate: 5,
      startRate: 0,
      timeUnitMs: 1000,
      stages: [],
      durationMs: 3000,
    };
    assert.equal(arrivalsBy(s, 0), 1);
    assert.equal(arrivalsBy(s, 199), 1);
    assert.equal(arrivalsBy(s, 200), 2);
    assert.equal(arrivalsBy(s, 10_000), 15, '5/s for 3 s');
  });

  it('integrates a ramping arrival rate', () => {
    const s = {
      executor: 'ramping-arrival-rate' as const,
      rate: 0,
      startRate: 0,
      timeUnitMs: 1000,
      durationMs: 0,
      stages: [
        { durationMs: 2000, target: 10 },
        { durationMs: 1000, target: 10 },
      ],
    };
    assert.equal(arrivalsBy(s, 0), 0);
    assert.equal(arrivalsBy(s, 2000), 10, 'triangle: 0->10/s over 2 s is 10 iterations');
    assert.equal(arrivalsBy(s, 3000), 20);
  });
});
