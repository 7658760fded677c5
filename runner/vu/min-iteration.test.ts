import assert from 'node:assert/strict';
import { waitAfterIterationMs } from './min-iteration.js';

describe('runner/vu: the wait minIterationDuration adds after an iteration', () => {
  it('is what is left of the minimum, none when the iteration took as long, or when unset or negative', () => {
    assert.equal(waitAfterIterationMs({ minIterationDuration: '1.5s' }, 400), 1100);
    assert.equal(waitAfterIterationMs({ minIterationDuration: '1.5s' }, 1500), 0);
    assert.equal(waitAfterIterationMs({ minIterationDuration: '1.5s' }, 2000), 0);
    assert.equal(waitAfterIterationMs({ minIterationDuration: '1m0.25s' }, 250), 60_000);
    assert.equal(waitAfterIterationMs({ minIterationDuration: '-1s' }, 0), 0);
    assert.equal(waitAfterIterationMs({}, 0), 0);
    assert.equal(waitAfterIterationMs(undefined, 0), 0);
  });
});
