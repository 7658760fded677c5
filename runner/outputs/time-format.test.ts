import assert from 'node:assert/strict';
import { rfc3339Nano } from './time-format.js';

const SECOND = Date.UTC(2026, 10, 22, 12, 54, 45);

describe('runner/outputs time-format: sample times as Go writes RFC3339Nano', () => {
  it('drops the fraction’s trailing zeros, and its dot when all are', () => {
    assert.equal(rfc3339Nano(SECOND), '2026-11-22T12:54:45Z');
    assert.equal(rfc3339Nano(SECOND + 629.5), '2026-11-22T12:54:45.6295Z');
    assert.equal(rfc3339Nano(SECOND + 100), '2026-11-22T12:54:45.1Z');
  });

  it('carries nanoseconds that round up to a whole millisecond into it', () => {
    assert.equal(rfc3339Nano(SECOND + 629.9999999), '2026-11-22T12:54:45.63Z');
    assert.equal(rfc3339Nano(SECOND + 999.9999999), '2026-11-22T12:54:46Z');
  });

  it('gives each time its own text when many share a millisecond (the cache per millisecond)', () => {
    const texts = [0.25, 0.5, 0.25, 7.125].map((ms) => rfc3339Nano(SECOND + 1 + ms));
    assert.deepEqual(texts, [
      '2026-11-22T12:54:45.00125Z',
      '2026-11-22T12:54:45.0015Z',
      '2026-11-22T12:54:45.00125Z',
      '2026-11-22T12:54:45.008125Z',
    ]);
  });
});
