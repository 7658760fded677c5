import assert from 'node:assert/strict';
import { decodeSamples, SampleBatcher } from './sample-batch.js';
import { SampleMetadata } from './sample-metadata.js';
import type { Sample } from '../contracts.js';

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

  it('hands an HTTP row to the expander and expands an iteration row into its four samples, in place', () => {
    const base = { scenario: 'default', group: '' };
    const batcher = new SampleBatcher();
    batcher.add('my_trend', 'trend', 'default', 7, base, 999);
    batcher.addHttp(41, base);
    batcher.addIteration(120, 480, 6.5, base, 1002);
    batcher.addIteration(10, 20, undefined, base, 1003);
    assert.equal(batcher.length, 4, 'one row each');
    const batch = structuredClone(batcher.take());
    assert.deepEqual(batch.nums, [120, 480, 10, 20], 'compound rows add numbers, not arrays');
    const calls: [number, Record<string, string>][] = [];
    const out = decodeSamples(batch, (into, id, tags) => {
      calls.push([id, tags]);
      // The expander stamps the samples (with the hop's end, in http-samples.ts).
      into.push({ metric: 'http_reqs', type: 'counter', contains: 'default', value: 1, tags, time: 1000 });
    });
    assert.deepEqual(calls, [[41, base]]);
    const row = (s: Sample) => `${s.metric}:${s.type}:${s.contains}=${s.value}@${s.time}`;
    assert.deepEqual(out.map(row), [
      'my_trend:trend:default=7@999',
      'http_reqs:counter:default=1@1000',
      'data_sent:counter:data=120@1002',
      'data_received:counter:data=480@1002',
      'iteration_duration:trend:time=6.5@1002',
      'iterations:counter:default=1@1002',
      'data_sent:counter:data=10@1003',
      'data_received:counter:data=20@1003',
    ]);
    // One base tag set for the whole batch: structured clone wrote it once.
    assert.ok(out.every((s) => s.tags === out[0]!.tags));
    assert.throws(() => decodeSamples(structuredClone(batch)), /needs the answers of its VU/);
  });

  it("carries k6's sample metadata to every sample a row expands into, and nothing when there is none", () => {
    const rows = new SampleBatcher();
    const metadata = new SampleMetadata(rows, new Set(['vu', 'iter']));
    const tags = { scenario: 'default', group: '' };
    rows.add('before', 'counter', 'default', 1, tags, 1);
    assert.equal(rows.take().metaRows, undefined, 'no metadata: the batch carries none');

    metadata.enterScenario(3, 'default');
    metadata.run(7);
    metadata.set('trace_id', 'abc');
    rows.add('my_counter', 'counter', 'default', 1, tags, 2);
    rows.addIteration(10, 20, 5, tags, 3);
    metadata.delete('trace_id');
    rows.add('after', 'counter', 'default', 1, tags, 4);
    const out = decodeSamples(structuredClone(rows.take()));
    assert.deepEqual(
      out.map((s) => [s.metric, s.metadata]),
      [
        ['my_counter', { vu: '3', iter: '7', trace_id: 'abc' }],
        ['data_sent', { vu: '3', iter: '7', trace_id: 'abc' }],
        ['data_received', { vu: '3', iter: '7', trace_id: 'abc' }],
        ['iteration_duration', { vu: '3', iter: '7', trace_id: 'abc' }],
        ['iterations', { vu: '3', iter: '7', trace_id: 'abc' }],
        ['after', { vu: '3', iter: '7' }],
      ],
    );
    // The same scenario again keeps the map; another starts afresh; setup and teardown have no vu.
    metadata.set('kept', 'yes');
    metadata.enterScenario(3, 'default');
    assert.deepEqual(metadata.current, { vu: '3', iter: '7', kept: 'yes' });
    metadata.enterScenario(3, 'other');
    assert.deepEqual(metadata.current, { vu: '3' });
    metadata.outsideScenarios();
    metadata.run(0);
    assert.deepEqual(metadata.current, { iter: '0' });
  });

  it('has no metadata where options.systemTags leaves vu and iter out and the script sets none', () => {
    const rows = new SampleBatcher();
    const metadata = new SampleMetadata(rows, undefined);
    metadata.enterScenario(1, 'default');
    metadata.run(0);
    rows.add('my_counter', 'counter', 'default', 1, {}, 1);
    assert.equal(decodeSamples(rows.take())[0]!.metadata, undefined);
  });
});
