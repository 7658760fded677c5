// The dns ttl read as k6's parseTTL and ParseExtendedDuration read it (lib/types/types.go).
import assert from 'node:assert/strict';
import { dnsTtlMs } from './dns-ttl.js';

describe('runner/options dnsTtlMs: the dns ttl as k6 reads it', () => {
  it("k6's words: inf, 0 and the empty default", () => {
    assert.equal(dnsTtlMs('inf'), Number.POSITIVE_INFINITY);
    assert.equal(dnsTtlMs('0'), 0);
    assert.equal(dnsTtlMs(''), 300_000);
  });

  it('a number without unit is milliseconds, as ParseExtendedDuration reads it', () => {
    assert.equal(dnsTtlMs('5'), 5);
    assert.equal(dnsTtlMs('1.5'), 1.5);
  });

  it("Go's durations and k6's days", () => {
    assert.equal(dnsTtlMs('1m30s'), 90_000);
    assert.equal(dnsTtlMs('1d2h'), 26 * 3_600_000);
    assert.equal(dnsTtlMs('-0s'), 0);
  });

  it('refuses what k6 refuses: negative, unreadable, spaced, negative hours after days', () => {
    for (const ttl of ['-1s', '-5', 'abc', '1x', ' 1m', '1m ', '1d-2h'])
      assert.equal(dnsTtlMs(ttl), undefined, ttl);
  });
});
