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

  it('expands an HTTP row into the nine k6 http samples and an iteration row into its four, in place', () => {
    const req = { method: 'GET', status: '200' };
    const it = { scenario: 'default' };
    const batcher = new SampleBatcher();
    batcher.add('my_trend', 'trend', 'default', 7, it, 999);
    batcher.addHttp([5, 0.5, 0, 0.25, 0, 0.125, 4, 0.375], false, req, 1000);
    batcher.addHttp([1, 2, 3, 4, 5, 6, 7, 8], undefined, req, 1001);
    batcher.addIteration(120, 480, 6.5, it, 1002);
    batcher.addIteration(10, 20, undefined, it, 1003);
    assert.equal(batcher.length, 5, 'one row each');
    const out = decodeSamples(structuredClone(batcher.take()));
    const row = (s: Sample) => `${s.metric}:${s.type}:${s.contains}=${s.value}@${s.time}`;
    assert.deepEqual(out.map(row), [
      'my_trend:trend:default=7@999',
      'http_reqs:counter:default=1@1000',
      'http_req_duration:trend:time=5@1000',
      'http_req_blocked:trend:time=0.5@1000',
      'http_req_connecting:trend:time=0.25@1000',
      'http_req_tls_handshaking:trend:time=0@1000',
      'http_req_sending:trend:time=0.125@1000',
      'http_req_waiting:trend:time=4@1000',
      'http_req_receiving:trend:time=0.375@1000',
      'http_req_failed:rate:default=1@1000',
      'http_reqs:counter:default=1@1001',
      'http_req_duration:trend:time=1@1001',
      'http_req_blocked:trend:time=2@1001',
      'http_req_connecting:trend:time=4@1001',
      'http_req_tls_handshaking:trend:time=5@1001',
      'http_req_sending:trend:time=6@1001',
      'http_req_waiting:trend:time=7@1001',
      'http_req_receiving:trend:time=8@1001',
      'data_sent:counter:data=120@1002',
      'data_received:counter:data=480@1002',
      'iteration_duration:trend:time=6.5@1002',
      'iterations:counter:default=1@1002',
      'data_sent:counter:data=10@1003',
      'data_received:counter:data=20@1003',
    ]);
    // A row's samples share its tag set, as k6's samples of one request do.
    assert.ok(out.slice(1, 10).every((s) => s.tags === out[1]!.tags));
    assert.deepEqual(out[1]!.tags, req);
    assert.deepEqual(out[18]!.tags, it);
  });
});
