// A VU's timers and its held work waited for as one (allOf): a failure on either side ends the wait,
// whatever the other still has pending.
import assert from 'node:assert/strict';
import { PendingWork } from './pending-work.js';
import { allOf } from './settle.js';
import { TimerQueue } from '../modules/timers/timers.js';

describe('runner/modules settle: allOf(timers, held work)', () => {
  it('a held callback that throws while an interval runs ends the wait with its error', async () => {
    const warnings: string[] = [];
    const timers = new TimerQueue((message) => warnings.push(message));
    const work = new PendingWork();
    const both = allOf(timers, work);
    timers.api.setInterval(() => {}, 5);
    const stream = work.hold(() => {});
    setTimeout(
      () =>
        stream.run(() => {
          throw new Error('listener threw');
        }),
      20,
    );
    const started = Date.now();
    await assert.rejects(
      both.settle(() => false),
      /listener threw/,
    );
    assert.ok(Date.now() - started < 1_000, 'not held until an interrupt');
    both.stopAll();
    assert.deepEqual(warnings, ['setInterval 1 was stopped because the VU iteration was interrupted']);
    assert.equal(both.busy, false);
  });

  it('a timer that throws while a socket is held ends the wait too, and stops the hold', async () => {
    const timers = new TimerQueue(() => {});
    const work = new PendingWork();
    const both = allOf(timers, work);
    let stopped = 0;
    work.hold(() => stopped++);
    timers.api.setTimeout(() => {
      throw new Error('timer threw');
    }, 10);
    await assert.rejects(
      both.settle(() => false),
      /timer threw/,
    );
    both.stopAll();
    assert.equal(stopped, 1);
  });

  it('done only when both are idle; an interrupt stops both', async () => {
    const timers = new TimerQueue(() => {});
    const work = new PendingWork();
    const both = allOf(timers, work);
    const hold = work.hold(() => {});
    timers.api.setTimeout(() => setTimeout(() => hold.release(), 20), 5);
    assert.equal(await both.settle(() => false), 'done');

    let stopped = 0;
    work.hold(() => stopped++);
    timers.api.setInterval(() => {}, 5);
    let interrupted = false;
    setTimeout(() => (interrupted = true), 30);
    assert.equal(await both.settle(() => interrupted), 'interrupted');
    assert.equal(stopped, 1);
    assert.equal(both.busy, false);
  });
});
