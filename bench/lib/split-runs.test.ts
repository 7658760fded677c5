import assert from 'node:assert/strict';
import { benchSplit, combineRuns, runSplit, shareVus } from './split-runs.js';

describe('bench split runs (BENCH_SPLIT)', () => {
  it('deals the VUs over the processes, the first ones taking the remainder', () => {
    assert.deepEqual(shareVus(1000, 2), [500, 500]);
    assert.deepEqual(shareVus(50, 3), [17, 17, 16]);
    assert.deepEqual(shareVus(3, 3), [1, 1, 1]);
    assert.throws(() => shareVus(2, 3), /cannot split 2 VUs over 3 processes/);
  });

  it('adds up what the processes did together, CPU per request weighted by their requests', () => {
    const both = combineRuns([
      { requests: 100, rps: 10, cpuUsPerReq: 50, peakRssMb: 300 },
      { requests: 300, rps: 30, cpuUsPerReq: 90, peakRssMb: 200 },
    ]);
    assert.deepEqual(both, { requests: 400, rps: 40, cpuUsPerReq: 80, peakRssMb: 500 });
  });

  it('starts every share at once', async () => {
    let running = 0;
    let most = 0;
    const got = await runSplit(10, 2, async (vus, index) => {
      most = Math.max(most, ++running);
      await new Promise((resolve) => setTimeout(resolve, 20));
      running--;
      return { requests: vus * (index + 1), rps: vus, cpuUsPerReq: 1, peakRssMb: 1 };
    });
    assert.equal(most, 2);
    assert.equal(got.requests, 5 + 10);
    assert.ok(got.wallS > 0);
  });

  it('reads BENCH_SPLIT: unset or 1 is no split', () => {
    assert.equal(benchSplit({}), 1);
    assert.equal(benchSplit({ BENCH_SPLIT: '1' }), 1);
    assert.equal(benchSplit({ BENCH_SPLIT: '4' }), 4);
    for (const bad of ['0', '17', '2.5', 'two'])
      assert.match(String(benchSplit({ BENCH_SPLIT: bad })), /BENCH_SPLIT must be a whole number/);
  });
});
