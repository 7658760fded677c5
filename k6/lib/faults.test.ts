import assert from 'node:assert/strict';
import { faultHeaders } from './faults.js';

describe('k6 fault-injection option (LT_FAULT_*)', () => {
  it('sends nothing unless asked', () => {
    assert.deepEqual(faultHeaders({}), {});
    assert.deepEqual(faultHeaders({ LT_FAULT_ERROR_RATE: '', LT_FAULT_LATENCY_MS: '' }), {});
  });

  it("maps the variables onto the sandbox's x-fault-* headers", () => {
    assert.deepEqual(faultHeaders({ LT_FAULT_ERROR_RATE: '0.2', LT_FAULT_LATENCY_MS: '600' }), {
      'x-fault-error-rate': '0.2',
      'x-fault-latency-ms': '600',
    });
    assert.deepEqual(faultHeaders({ LT_FAULT_ERROR_RATE: '1' }), { 'x-fault-error-rate': '1' });
  });

  it('refuses values outside what the sandbox accepts, in one line', () => {
    assert.throws(
      () => faultHeaders({ LT_FAULT_ERROR_RATE: '1.5' }),
      /^Error: LT_FAULT_ERROR_RATE must be a rate from 0 to 1, got "1.5"$/,
    );
    assert.throws(
      () => faultHeaders({ LT_FAULT_LATENCY_MS: 'slow' }),
      /^Error: LT_FAULT_LATENCY_MS must be milliseconds from 0 to 10000, got "slow"$/,
    );
    assert.throws(() => faultHeaders({ LT_FAULT_LATENCY_MS: '-1' }), /LT_FAULT_LATENCY_MS/);
  });
});
