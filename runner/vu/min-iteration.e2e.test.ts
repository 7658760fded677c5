// k6's minIterationDuration, on real k6 v1.3 and on the runner: the iterations each engine starts, on
// a looping and an arrival-rate executor, and a wait cut at a scenario's hard stop
// (fixtures/min-iteration-duration.js).
import assert from 'node:assert/strict';
import { logLinesAsync, realK6OrSkip, RUNNER } from '../testing/log-lines.js';

const FIXTURE = 'runner/vu/fixtures/min-iteration-duration.js';

/** The log lines, sorted: two VUs log at once (and k6 warns of the arrivals its one busy VU drops). */
const linesOf = async (command: string[]) => (await logLinesAsync(command, FIXTURE)).sort();

describe('runner/vu: minIterationDuration, as k6 v1.3 waits it out', function () {
  this.timeout(60_000);

  it('starts the same iterations, drops the same arrivals and ends a wait at the hard stop', async function () {
    const k6 = realK6OrSkip(this);
    const [expected, actual] = await Promise.all([linesOf(k6), linesOf(RUNNER)]);
    assert.equal(expected.length, 8, expected.join('\n'));
    assert.ok(
      expected.some((line) => line.includes('cut at its hard stop: true')),
      expected.join('\n'),
    );
    assert.deepEqual(actual, expected);
  });
});
