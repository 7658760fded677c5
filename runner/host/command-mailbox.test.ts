import assert from 'node:assert/strict';
import { CommandMailbox } from './command-mailbox.js';

describe('runner/host: CommandMailbox (a VU isolate serve loop commands)', () => {
  it('a take waits for the next put; queued items come out in order', async () => {
    const box = new CommandMailbox<number>();
    const first = box.take();
    assert.ok(first instanceof Promise);
    assert.equal(box.isWaiting, true);
    assert.equal(box.put(1), true);
    assert.equal(box.isWaiting, false);
    assert.equal(await first, 1);
    box.put(2);
    box.put(3);
    assert.deepEqual([box.take(), box.take()], [2, 3]);
  });

  it('close() answers a waiting take with null, which ends the loop', async () => {
    const box = new CommandMailbox<string>();
    const waiting = box.take();
    box.close();
    assert.equal(await waiting, null);
    assert.equal(box.isWaiting, false);
    assert.equal(box.take(), null);
  });

  it('after close(), what was queued is still taken, then null; later puts are refused', () => {
    const box = new CommandMailbox<string>();
    box.put('teardown');
    box.close();
    assert.equal(box.put('late'), false);
    assert.deepEqual([box.take(), box.take()], ['teardown', null]);
  });

  it('refuses a second take while one waits: the serve loop takes one at a time', () => {
    const box = new CommandMailbox<string>();
    void box.take();
    assert.throws(() => box.take(), /one take at a time/);
  });
});
