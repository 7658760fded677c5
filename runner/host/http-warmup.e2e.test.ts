import assert from 'node:assert/strict';
import { warmHttpPath, warmUpExchange } from './http-warmup.js';

describe('runner/vu HTTP warm-up', () => {
  it('the exchange completes against its own loopback server', async function () {
    this.timeout(20_000);
    await warmUpExchange();
  });

  it('runs once per process, and not at all with LOADLAB_HTTP_WARMUP=0', async function () {
    this.timeout(20_000);
    const saved = process.env.LOADLAB_HTTP_WARMUP;
    process.env.LOADLAB_HTTP_WARMUP = '0';
    try {
      assert.notEqual(warmHttpPath(), warmHttpPath());
    } finally {
      if (saved === undefined) delete process.env.LOADLAB_HTTP_WARMUP;
      else process.env.LOADLAB_HTTP_WARMUP = saved;
    }
    const first = warmHttpPath();
    assert.equal(warmHttpPath(), first);
    await first;
  });
});
