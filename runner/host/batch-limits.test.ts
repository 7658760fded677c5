import assert from 'node:assert/strict';
import { batchHostKey, underBatchLimits } from './batch-limits.js';

describe('runner/host: http.batch under k6 limits', () => {
  it('keys a request by its host as written, port and case kept, credentials dropped', () => {
    assert.equal(batchHostKey('http://127.0.0.1:5000/a?b#c'), '127.0.0.1:5000');
    assert.equal(batchHostKey('https://User:pw@Example.COM/x'), 'Example.COM');
    assert.equal(batchHostKey('http://[::1]:80'), '[::1]:80');
    assert.equal(batchHostKey('not a url'), 'not a url');
  });

  it('sends in order, at most `workers` at once and `perHost` to a host, answers in order', async () => {
    const started: string[] = [];
    let inFlight = 0;
    let most = 0;
    const send = async (url: string) => {
      started.push(url);
      most = Math.max(most, ++inFlight);
      await new Promise((resolve) => setTimeout(resolve, 5));
      inFlight -= 1;
      return url.toUpperCase();
    };
    const urls = ['http://a/1', 'http://a/2', 'http://a/3', 'http://b/1', 'http://b/2'];
    assert.deepEqual(
      await underBatchLimits(urls, (u) => u, [20, 2], send),
      urls.map((u) => u.toUpperCase()),
    );
    // Two of a's first, then b's (taken as the third worker waits for a slot of a), then a's third.
    assert.deepEqual(started, ['http://a/1', 'http://a/2', 'http://b/1', 'http://b/2', 'http://a/3']);
    assert.equal(most, 4);
    most = 0;
    await underBatchLimits(urls, (u) => u, [1, 0], send);
    assert.equal(most, 1);
    most = 0;
    await underBatchLimits(urls, (u) => u, [0, 0], send); // k6 would never answer: no limit here
    assert.equal(most, 5);
  });
});
