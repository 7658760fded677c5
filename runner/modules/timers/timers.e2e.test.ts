// k6/timers: the queue on its own, and fixtures/timers*.js logged line for line on real k6 and the runner.
import assert from 'node:assert/strict';
import { assertSameLogLines, logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';
import { WORKER_HOST_ENV } from '../../testing/vu-isolates.js';
import { TimerQueue } from './timers.js';

/** k6 stops an iteration's timers in Go map order, which changes from run to run: each run of such lines is sorted. */
function stoppedTimersSorted(lines: string[]): string[] {
  const stopped = (line: string | undefined) => Boolean(line?.includes('was stopped because'));
  const out: string[] = [];
  for (let i = 0; i < lines.length;) {
    let end = i;
    while (stopped(lines[end])) end++;
    if (end > i) {
      out.push(...lines.slice(i, end).sort());
      i = end;
    } else out.push(lines[i++]!);
  }
  return out;
}

describe('runner/modules k6/timers', () => {
  it('settles when the last timer is done, and stops the others with k6 warning when a callback throws', async () => {
    const warnings: string[] = [];
    const queue = new TimerQueue((message) => warnings.push(message));
    const fired: number[] = [];
    queue.api.setTimeout(() => fired.push(1), 5);
    const id = queue.api.setInterval(() => {
      fired.push(2);
      queue.api.clearInterval(id);
    }, 1);
    assert.equal(queue.busy, true);
    assert.equal(await queue.settle(() => false), 'done');
    assert.deepEqual(fired.sort(), [1, 2]);

    queue.api.setTimeout(() => {
      throw new Error('boom');
    }, 1);
    queue.api.setTimeout(() => fired.push(3), 1000);
    await assert.rejects(
      queue.settle(() => false),
      /boom/,
    );
    assert.deepEqual(warnings, ['setTimeout 4 was stopped because the VU iteration was interrupted']);
    assert.equal(queue.busy, false);
  });

  it('an interrupt stops the pending timers', async () => {
    const warnings: string[] = [];
    const queue = new TimerQueue((message) => warnings.push(message));
    queue.api.setInterval(() => {}, 5);
    let interrupted = false;
    setTimeout(() => (interrupted = true), 30);
    assert.equal(await queue.settle(() => interrupted), 'interrupted');
    assert.deepEqual(warnings, ['setInterval 1 was stopped because the VU iteration was interrupted']);
  });

  it('fixtures/timers.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/timers.js';
    const expected = stoppedTimersSorted(logLines(k6, script));
    assert.ok(expected.length >= 14, expected.join('\n'));
    assert.deepEqual(stoppedTimersSorted(logLines(RUNNER, script)), expected);
  });

  it("the init code's timers fire before the VU is ready, and one that throws fails the init (exit 107)", function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/modules/fixtures/timers-init.js', 15);
    const k6 = realK6OrSkip(this);
    const initScript = 'runner/modules/fixtures/timers-init.js';
    assert.deepEqual(logLines(RUNNER, initScript, [], 0, WORKER_HOST_ENV), logLines(k6, initScript));
    const script = 'runner/modules/fixtures/timers-init-throws.js';
    const expected = logLines(k6, script, [], 107);
    assert.equal(expected.length, 1, expected.join('\n'));
    assert.deepEqual(logLines(RUNNER, script, [], 107), expected);
    assert.deepEqual(logLines(RUNNER, script, [], 107, WORKER_HOST_ENV), expected);
  });
});
