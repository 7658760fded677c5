// The run record compose.sh writes and k6's exit-code rule, as stack:verify reads them.
import assert from 'node:assert/strict';
import { crossedThresholds, exitAgreesWithThresholds, parseRunRecord, thresholdCount } from './run-record.js';

const RECORD =
  'testid=20261126T010203Z-mixed-traffic\nscenario=scenarios/load/mixed-traffic\nprofile=ci\nstarted=1700000000\nended=1700000042\nexit=99\n';

describe('stack:verify run record', () => {
  it('reads what compose.sh stream writes, times in ms', () => {
    assert.deepEqual(parseRunRecord(RECORD), {
      testid: '20261126T010203Z-mixed-traffic',
      scenario: 'scenarios/load/mixed-traffic',
      profile: 'ci',
      startedMs: 1_700_000_000_000,
      endedMs: 1_700_000_042_000,
      exitCode: 99,
    });
  });

  it('names a missing or damaged line', () => {
    assert.throws(() => parseRunRecord(RECORD.replace(/^exit=.*\n/m, '')), /has no exit= line/);
    assert.throws(() => parseRunRecord(RECORD.replace('exit=99', 'exit=x')), /exit=x is not a whole number/);
    assert.throws(
      () => parseRunRecord(RECORD.replace('ended=1700000042', 'ended=1')),
      /ended before it started/,
    );
  });

  it("holds k6's exit code to the summary's thresholds (0 all held, 99 one crossed)", () => {
    const summary = {
      metrics: {
        http_req_duration: { thresholds: { 'p(95)<500': { ok: true }, 'p(99)<900': { ok: false } } },
        checks: { thresholds: { 'rate>0.99': { ok: true } } },
        iterations: {},
      },
    };
    const crossed = crossedThresholds(summary);
    assert.deepEqual(crossed, ['http_req_duration: p(99)<900']);
    assert.equal(thresholdCount(summary), 3);
    assert.equal(exitAgreesWithThresholds(99, crossed), undefined);
    assert.match(
      exitAgreesWithThresholds(0, crossed)!,
      /exited 0 though the summary marks crossed: http_req_duration/,
    );
    assert.equal(exitAgreesWithThresholds(0, []), undefined);
    assert.match(exitAgreesWithThresholds(99, [])!, /exited 99 though .* every threshold as held/);
    assert.match(exitAgreesWithThresholds(107, [])!, /exited 107, which is not a threshold outcome/);
  });
});
