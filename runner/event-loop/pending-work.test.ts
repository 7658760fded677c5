// What an iteration waits for besides its timers (k6/net/grpc streams and asyncInvoke, WebSockets).
import assert from 'node:assert/strict';
import { PendingWork } from './pending-work.js';

describe('PendingWork: what an iteration waits for', () => {
  it('settles when the last hold is released, rejects with a callback error, stops on interrupt', async () => {
    const work = new PendingWork();
    const stopped: string[] = [];
    const a = work.hold(() => stopped.push('a'));
    setTimeout(() => a.release(), 10);
    assert.equal(await work.settle(() => false), 'done');

    const b = work.hold(() => stopped.push('b'));
    work.hold(() => stopped.push('c'));
    setTimeout(() =>
      b.run(() => {
        throw new Error('listener failed');
      }),
    );
    await assert.rejects(
      work.settle(() => false),
      /listener failed/,
    );
    assert.deepEqual(stopped.sort(), ['b', 'c']);
    assert.equal(work.busy, false);

    work.hold(() => stopped.push('d'));
    let interrupted = false;
    setTimeout(() => (interrupted = true), 30);
    assert.equal(await work.settle(() => interrupted), 'interrupted');
    assert.ok(stopped.includes('d'));
  });
});
