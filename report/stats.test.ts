import assert from 'node:assert/strict';
import { trendStats } from './stats.js';

describe('report trendStats: a trend by k6 TrendSink', () => {
  it("interpolates percentiles between the closest ranks as k6's TrendSink.P does", () => {
    const values = Array.from({ length: 100 }, (_, i) => 100 - i); // 100 down to 1, unsorted input
    const s = trendStats(values);
    assert.deepEqual([s.count, s.min, s.max, s.avg, s.med], [100, 1, 100, 50.5, 50.5]);
    assert.ok(Math.abs(s.p90 - 90.1) < 1e-9, `p90 ${s.p90}`);
    assert.ok(Math.abs(s.p95 - 95.05) < 1e-9, `p95 ${s.p95}`);
    assert.ok(Math.abs(s.p99 - 99.01) < 1e-9, `p99 ${s.p99}`);
  });

  it('is all zeros without values, as k6 shows an empty trend', () => {
    assert.deepEqual(trendStats([]), { count: 0, avg: 0, min: 0, max: 0, med: 0, p90: 0, p95: 0, p99: 0 });
  });
});
