import assert from 'node:assert/strict';
import { weightedPick } from './pick.js';

/** A seeded generator (mulberry32) so the distribution test is repeatable. */
function seeded(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('weighted pick', () => {
  it('follows the mixed-traffic weights 35/30/15/20', () => {
    const random = seeded(42);
    const items = [
      { weight: 35, value: 'health' },
      { weight: 30, value: 'users-token' },
      { weight: 15, value: 'static' },
      { weight: 20, value: 'users-anon' },
    ];
    const counts: Record<string, number> = {};
    const n = 100_000;
    for (let i = 0; i < n; i++) {
      const v = weightedPick(items, random);
      counts[v] = (counts[v] ?? 0) + 1;
    }
    // 100k draws: one standard deviation is at most 0.16 percentage points; 1 point is > 6 sigma.
    for (const item of items)
      assert.ok(Math.abs(((counts[item.value] ?? 0) / n) * 100 - item.weight) < 1, item.value);
  });

  it('takes boundaries to the right item and refuses empty weights', () => {
    const items = [
      { weight: 1, value: 'a' },
      { weight: 1, value: 'b' },
    ];
    assert.equal(
      weightedPick(items, () => 0),
      'a',
    );
    assert.equal(
      weightedPick(items, () => 0.5),
      'b',
    );
    assert.equal(
      weightedPick(items, () => 0.999999),
      'b',
    );
    assert.throws(() => weightedPick([{ weight: 0, value: 'x' }]), /positive weight/);
  });
});
