// The password-check queue is bounded, fair by username, budgeted per user and
// per client, drops checks whose client has gone and shares identical checks.
import assert from 'node:assert/strict';
import { CheckAbandoned, CheckRefused, createCheckQueue, type CheckRequest } from './check-queue.js';

/** A request that can leave, as a closed socket does. */
function request(user: string, key: string, client = 'c1') {
  const listeners: (() => void)[] = [];
  let gone = false;
  const req: CheckRequest & { leave(): void } = {
    user,
    client,
    key,
    gone: () => gone,
    onGone: (l) => listeners.push(l),
    leave() {
      gone = true;
      for (const l of listeners) l();
    },
  };
  return req;
}

/** Work that finishes when the test says so, recording the order it started in. */
function manualWork(log: string[]) {
  const pending: (() => void)[] = [];
  return {
    work: (name: string) => () =>
      new Promise<boolean>((resolve) => {
        log.push(name);
        pending.push(() => resolve(true));
      }),
    finishOne: async () => {
      pending.shift()?.();
      await new Promise((r) => setImmediate(r));
    },
  };
}

const limits = { parallel: 1, maxWaiting: 100, perUser: 3, perClient: 100 };

describe('password-check queue', () => {
  it("serves users in turn: a flood on one name puts at most one check ahead of another user's", async () => {
    const log: string[] = [];
    const m = manualWork(log);
    const q = createCheckQueue({ ...limits, perUser: 50 });
    const flood = Array.from({ length: 20 }, (_, i) => q.run(request('victim', `f${i}`), m.work(`f${i}`)));
    const valid = q.run(request('alice', 'a'), m.work('alice'));
    await m.finishOne(); // f0 was running; now alice's turn comes before f1
    await m.finishOne();
    assert.deepEqual(log.slice(0, 2), ['f0', 'alice']);
    assert.equal(await valid, true);
    for (let i = 0; i < 20; i++) await m.finishOne();
    await Promise.all(flood);
  });

  it('refuses past the per-user and per-client budgets with 429, and past the queue with 503', async () => {
    const log: string[] = [];
    const m = manualWork(log);
    const q = createCheckQueue({ parallel: 1, maxWaiting: 4, perUser: 3, perClient: 5 });
    const held = [0, 1, 2].map((i) => q.run(request('victim', `v${i}`), m.work(`v${i}`)));
    await assert.rejects(q.run(request('victim', 'v3'), m.work('v3')), (e: CheckRefused) => e.status === 429);
    held.push(q.run(request('bob', 'b0'), m.work('b0')), q.run(request('carol', 'c0'), m.work('c0')));
    // Five held from client c1: the sixth from it is refused, another client is not.
    await assert.rejects(q.run(request('dan', 'd0'), m.work('d0')), (e: CheckRefused) => e.status === 429);
    held.push(q.run(request('dan', 'd0', 'c2'), m.work('d0')));
    // One running, five waiting? maxWaiting is 4: the queue was full before dan's from c2.
    assert.equal(q.stats().waiting, 4);
    await assert.rejects(held.pop()!, (e: CheckRefused) => e.status === 503);
    for (let i = 0; i < 6; i++) await m.finishOne();
    await Promise.all(held);
    // The users not served yet come before the flooded one's next check.
    assert.deepEqual(log, ['v0', 'b0', 'c0', 'v1', 'v2']);
  });

  it('never derives for a client that has gone, and frees its budget at once', async () => {
    const log: string[] = [];
    const m = manualWork(log);
    const q = createCheckQueue(limits);
    const running = q.run(request('u', 'k0'), m.work('k0'));
    const leaving = [request('u', 'k1'), request('u', 'k2')];
    const left = leaving.map((r) => q.run(r, m.work(r.key)));
    for (const r of leaving) r.leave();
    for (const p of left) await assert.rejects(p, CheckAbandoned);
    // Budget back: three more for u are accepted (one running + two).
    const more = [q.run(request('u', 'k3'), m.work('k3')), q.run(request('u', 'k4'), m.work('k4'))];
    for (let i = 0; i < 3; i++) await m.finishOne();
    await Promise.all([running, ...more]);
    assert.deepEqual(log, ['k0', 'k3', 'k4']);
    assert.equal(q.stats().abandoned, 2);
  });

  it('runs identical checks once: fifty logins with the same credentials cost one derivation', async () => {
    const log: string[] = [];
    const m = manualWork(log);
    const q = createCheckQueue(limits);
    const all = Array.from({ length: 50 }, () => q.run(request('admin', 'same'), m.work('same')));
    await m.finishOne();
    assert.deepEqual(await Promise.all(all), Array(50).fill(true));
    assert.deepEqual(log, ['same']);
    // A shared check still runs while one of its requests remains.
    const a = request('admin', 'again');
    const b = request('admin', 'again');
    const pa = q.run(a, m.work('again'));
    const pb = q.run(b, m.work('again'));
    a.leave();
    await m.finishOne();
    assert.equal(await pb, true);
    assert.equal(await pa, true);
  });
});
