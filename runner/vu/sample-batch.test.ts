import assert from 'node:assert/strict';
import { decodeSamples, SampleBatcher } from './sample-batch.js';
import type { Sample } from '../types.js';

describe('runner/vu sample batches', () => {
  it('decode gives back the samples in order, metric names once per batch, shared tag sets still shared', () => {
    const a = { method: 'GET', status: '200' };
    const b = { check: 'ok' };
    const input: Sample[] = [
      { metric: 'http_reqs', type: 'counter', contains: 'default', value: 1, tags: a, time: 1000.5 },
      { metric: 'http_req_duration', type: 'trend', contains: 'time', value: 2.25, tags: a, time: 1000.5 },
      { metric: 'checks', type: 'rate', contains: 'default', value: 0, tags: b, time: 1001 },
      { metric: 'http_reqs', type: 'counter', contains: 'default', value: 1, tags: a, time: 1002 },
    ];
    const batcher = new SampleBatcher();
    for (const s of input) batcher.add(s.metric, s.type, s.contains, s.value, s.tags, s.time);
    assert.equal(batcher.length, 4);
    // Through structured clone, as postMessage sends it.
    const batch = structuredClone(batcher.take());
    assert.deepEqual(batch.names, ['http_reqs', 'http_req_duration', 'checks']);
    const out = decodeSamples(batch);
    assert.deepEqual(out, input);
    assert.equal(out[0]!.tags, out[1]!.tags);
    assert.notEqual(out[0]!.tags, out[2]!.tags);
    assert.equal(batcher.length, 0);
    assert.deepEqual(decodeSamples(batcher.take()), []);
  });
});
