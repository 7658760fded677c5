import assert from 'node:assert/strict';
import { PendingWork } from './pending-work.js';
import { allOf } from './settle.js';
import { UnhandledRejection, UnhandledRejections } from './unhandled-rejections.js';

const reasonOf = (err: unknown) => (err instanceof UnhandledRejection ? err.reason : err);

describe('runner/event-loop: an iteration’s unhandled rejections', () => {
  it('one reported while the iteration waits for its work ends the wait with it and stops that work', async () => {
    const rejections = new UnhandledRejections();
    const pending = new PendingWork();
    let stopped = false;
    pending.hold(() => (stopped = true));
    const work = allOf(pending, rejections);
    const settled = work.settle(() => false);
    rejections.report('first');
    rejections.report('second');
    await assert.rejects(settled, (err: unknown) => reasonOf(err) === 'first');
    work.stopAll();
    assert.equal(stopped, true);
  });

  it('one reported before the wait: the iteration is busy, and its wait fails at once', async () => {
    const rejections = new UnhandledRejections();
    const work = allOf(new PendingWork(), rejections);
    assert.equal(work.busy, false);
    rejections.report(new Error('lost'));
    assert.equal(work.busy, true);
    await assert.rejects(
      work.settle(() => false),
      (err: unknown) => (reasonOf(err) as Error).message === 'lost',
    );
    assert.equal(work.busy, false);
  });

  it('clear() forgets one the last iteration left, so the next one starts without it', () => {
    const rejections = new UnhandledRejections();
    rejections.report('left over');
    rejections.clear();
    assert.equal(rejections.busy, false);
    assert.equal(rejections.takeFailure(), undefined);
  });
});
