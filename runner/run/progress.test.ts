// The progress display's pieces against k6 v1.3's own formatting (internal/ui/pb, lib/executor).
import assert from 'node:assert/strict';
import { parseRunArgs } from '../cli/args.js';
import { consolidate } from '../options/options.js';
import {
  fixedDuration,
  fixedInt,
  fixedRate,
  k6Order,
  renderBars,
  runLine,
  scenarioProgress,
  type Bar,
} from './progress.js';

describe('runner/run/progress', () => {
  it('durations are as wide as the maximum needs, rounded to tenths (pb.GetFixedLengthDuration)', () => {
    assert.equal(fixedDuration(1_000, 3_000), '1.0s');
    assert.equal(fixedDuration(1_980, 3_000), '2.0s');
    assert.equal(fixedDuration(1_940, 3_000), '1.9s');
    assert.equal(fixedDuration(3_200, 40_000), '03.2s');
    assert.equal(fixedDuration(61_000, 300_000), '1m01.0s');
    // sc.out in the k6 golden outputs: a 10 min shared-iterations maxDuration.
    assert.equal(fixedDuration(200, 600_000), '00m00.2s');
    assert.equal(fixedDuration(61_000, 600_000), '01m01.0s');
    assert.equal(fixedDuration(3_601_000, 7_200_000), '1h00m01.0s');
    assert.equal(fixedDuration(3_601_000, 43_200_000), '01h00m01.0s');
    assert.equal(fixedDuration(90_000_000, 2 * 86_400_000), '1d01h00m00.0s');
    assert.equal(fixedDuration(90_000_000, 20 * 86_400_000), '01d01h00m00.0s');
    // A value longer than the maximum widens it, as Go's does.
    assert.equal(fixedDuration(12_000, 3_000), '12.0s');
  });

  it('counts are zero-padded to the width of their maximum, rates to two decimals', () => {
    assert.equal(fixedInt(0, 12), '00');
    assert.equal(fixedInt(7, 120), '007');
    assert.equal(fixedInt(3, 9), '3');
    assert.equal(fixedRate(10, 10), '10.00');
    assert.equal(fixedRate(4.789, 5), '4.79');
    assert.equal(fixedRate(4.5, 150), '004.50');
  });

  it('the run line pads VU counts to the most VUs the scenarios may hold', () => {
    assert.equal(
      runLine(2_100, 630_000, 0, 12, 13, 95, 0),
      'running (00m02.1s), 00/12 VUs, 95 complete and 0 interrupted iterations',
    );
  });

  const config = (options: Record<string, unknown>) =>
    consolidate(options, {}, parseRunArgs(['x.js'])).scenarios;

  it("each executor's columns, during and after its duration", () => {
    const [cv, ar, si, pv, rv, ra] = config({
      scenarios: {
        cv: { executor: 'constant-vus', vus: 2, duration: '2s' },
        ar: { executor: 'constant-arrival-rate', rate: 10, duration: '2s', preAllocatedVUs: 2, maxVUs: 3 },
        si: { executor: 'shared-iterations', vus: 2, iterations: 4 },
        pv: { executor: 'per-vu-iterations', vus: 2, iterations: 2 },
        rv: { executor: 'ramping-vus', stages: [{ duration: '2s', target: 2 }] },
        ra: {
          executor: 'ramping-arrival-rate',
          startRate: 1,
          preAllocatedVUs: 2,
          stages: [{ duration: '2s', target: 5 }],
        },
      },
    });
    const at = (
      c: typeof cv,
      spentMs: number,
      runningVus: number,
      allocatedVus: number,
      iterationsDone: number,
    ) =>
      scenarioProgress(
        { config: c!, startedAt: 1_000, runningVus, allocatedVus, iterationsDone },
        1_000 + spentMs,
      );
    assert.deepEqual(at(cv, 1_000, 2, 2, 9), { progress: 0.5, right: ['2 VUs', '1.0s/2s'] });
    assert.deepEqual(at(cv, 2_100, 2, 2, 9), { progress: 1, right: ['2 VUs', '2s'] });
    assert.deepEqual(at(ar, 2_100, 0, 2, 20).right, ['0/2 VUs', '2s', '10.00 iters/s']);
    assert.deepEqual(at(si, 200, 0, 2, 4), {
      progress: 1,
      right: ['2 VUs', '00m00.2s/10m0s', '4/4 shared iters'],
    });
    assert.deepEqual(at(pv, 200, 0, 2, 3), {
      progress: 0.75,
      right: ['2 VUs', '00m00.2s/10m0s', '3/4 iters, 2 per VU'],
    });
    assert.deepEqual(at(rv, 1_000, 1, 2, 3).right, ['1/2 VUs', '1.0s/2.0s']);
    assert.deepEqual(at(rv, 2_100, 0, 2, 3).right, ['0/2 VUs', '2s']);
    // 1 to 5 iterations/s over 2 s: six started by the end (t + t² = 0..5), the seventh due at 2 s, 0.209 s
    // after the sixth, which k6 v1.3.0 showed as "4.79 iters/s".
    assert.deepEqual(at(ra, 2_100, 0, 2, 6).right, ['0/2 VUs', '2s', '4.79 iters/s']);
  });

  it('orders scenarios by startTime, then name, as k6 sorts its executors', () => {
    const runs = config({
      scenarios: {
        b: { executor: 'constant-vus', vus: 1, duration: '1s' },
        late: { executor: 'constant-vus', vus: 1, duration: '1s', startTime: '1s' },
        a: { executor: 'constant-vus', vus: 1, duration: '1s' },
      },
    }).map((c) => ({ config: c }));
    assert.deepEqual(
      k6Order(runs).map((r) => r.config.name),
      ['a', 'b', 'late'],
    );
  });

  const bars: Bar[] = [
    { left: 'ar', status: '✓', progress: 1, right: ['0/2 VUs', '2s', '10.00 iters/s'] },
    { left: 'cv', status: '✓', progress: 1, right: ['2 VUs', '2s'] },
    { left: 'pv', status: '✓', progress: 1, right: ['2 VUs', '00m00.2s/10m0s', '4/4 iters, 2 per VU'] },
  ];

  it('lays bars out as k6 does off a terminal: names padded to "Init", columns to the widest', () => {
    // Recorded from k6 v1.3.0 (the last block of a run with these scenarios, stdout not a terminal).
    assert.equal(
      renderBars('running', bars, { tty: false, termWidth: 80, color: false }),
      [
        'running',
        'ar   ✓ [ 100% ] 0/2 VUs  2s              10.00 iters/s',
        'cv   ✓ [ 100% ] 2 VUs    2s             ',
        'pv   ✓ [ 100% ] 2 VUs    00m00.2s/10m0s  4/4 iters, 2 per VU',
      ].join('\n'),
    );
  });

  it('draws bars on a terminal, as wide as the terminal leaves (8 to 40 columns), and truncates long names', () => {
    const drawn = renderBars(
      'running',
      [
        {
          left: 'a-scenario-name-longer-than-thirty',
          status: ' ',
          progress: 0.5,
          right: ['1 VUs', '1.0s/2s'],
        },
      ],
      { tty: true, termWidth: 80, color: false },
    ).split('\n')[1]!;
    // 80 columns less the padding column: 79, of which the bar takes what name and columns leave.
    assert.equal(
      drawn,
      `a-scenario-name-longer-than...   [${'='.repeat(13)}>${'-'.repeat(15)}] 1 VUs  1.0s/2s`,
    );
    assert.equal(drawn.length, 79);
    const narrow = renderBars('running', bars, { tty: true, termWidth: 70, color: false }).split('\n')[3]!;
    assert.equal(narrow.length, 69);
    assert.match(narrow, /^pv {3}✓ \[=+\] 2 VUs/);
  });
});
