// The banner's scenario lines against real k6 v1.3.0's, recorded on 2026-11-26 from
// `k6 run --no-color run/fixtures/progress-executors.js` (the scenarios below are that fixture's):
// k6 lists scenarios by startTime then name, shows an arrival-rate pool as "maxVUs: pre-max" (one
// number when both are equal), and leaves out a gracefulStop of 0 (lib/executor getBaseInfo).
import assert from 'node:assert/strict';
import { parseRunArgs } from '../cli/args.js';
import { consolidate } from '../options/options.js';
import { banner } from './console.js';

const SCENARIOS = {
  cv: { executor: 'constant-vus', vus: 2, duration: '2s' },
  ar: {
    executor: 'constant-arrival-rate',
    rate: 10,
    timeUnit: '1s',
    duration: '2s',
    preAllocatedVUs: 2,
    maxVUs: 3,
  },
  si: { executor: 'shared-iterations', vus: 2, iterations: 4 },
  pv: { executor: 'per-vu-iterations', vus: 2, iterations: 2 },
  rv: { executor: 'ramping-vus', stages: [{ duration: '2s', target: 2 }] },
  ra: {
    executor: 'ramping-arrival-rate',
    startRate: 1,
    preAllocatedVUs: 2,
    stages: [{ duration: '2s', target: 5 }],
  },
  cut: { executor: 'shared-iterations', vus: 1, iterations: 100, maxDuration: '1s', gracefulStop: '0s' },
  'a-scenario-name-longer-than-thirty': {
    executor: 'per-vu-iterations',
    vus: 1,
    iterations: 1,
    startTime: '1s',
  },
};

// `cut` (1 VU) ends at 1s, when `a-scenario-...` (1 VU) starts: k6 counts that VU once, 14 not 15.
const K6_TOTALS =
  '     scenarios: (100.00%) 8 scenarios, 14 max VUs, 10m31s max duration (incl. graceful stop):';

const K6_LINES = [
  '              * ar: 10.00 iterations/s for 2s (maxVUs: 2-3, gracefulStop: 30s)',
  '              * cut: 100 iterations shared among 1 VUs (maxDuration: 1s)',
  '              * cv: 2 looping VUs for 2s (gracefulStop: 30s)',
  '              * pv: 2 iterations for each of 2 VUs (maxDuration: 10m0s, gracefulStop: 30s)',
  '              * ra: Up to 5.00 iterations/s for 2s over 1 stages (maxVUs: 2, gracefulStop: 30s)',
  '              * rv: Up to 2 looping VUs for 2s over 1 stages (gracefulRampDown: 30s, gracefulStop: 30s)',
  '              * si: 4 iterations shared among 2 VUs (maxDuration: 10m0s, gracefulStop: 30s)',
  '              * a-scenario-name-longer-than-thirty: 1 iterations for each of 1 VUs (maxDuration: 10m0s, startTime: 1s, gracefulStop: 30s)',
];

describe('runner/run/console banner', () => {
  it("lists every executor's scenario line as k6 v1.3 does", () => {
    const config = consolidate({ scenarios: SCENARIOS }, {}, parseRunArgs(['script.js']));
    const lines = banner('script.js', [], config.scenarios).split('\n');
    assert.deepEqual(
      lines.filter((l) => l.startsWith('              * ')),
      K6_LINES,
    );
  });

  it('states the max VUs and max duration k6 does: VUs of scenarios that never overlap counted once', () => {
    const config = consolidate({ scenarios: SCENARIOS }, {}, parseRunArgs(['script.js']));
    const lines = banner('script.js', [], config.scenarios).split('\n');
    assert.equal(
      lines.find((l) => l.startsWith('     scenarios: ')),
      K6_TOTALS,
    );
  });

  it("rounds the max duration to 100 ms as k6 does (Go's Duration.Round: 2.25 s is 2.3s)", () => {
    // Real k6 v1.3.0, recorded 2026-11-27 (a setup that aborts: the banner and nothing else):
    // `scenarios: (100.00%) 2 scenarios, 2 max VUs, 2.3s max duration` with both lines' durations unrounded.
    const scenarios = {
      a: { executor: 'constant-vus', vus: 1, duration: '2250ms', gracefulStop: '0s' },
      b: { executor: 'constant-vus', vus: 1, duration: '1349ms', gracefulStop: '0s' },
    };
    const config = consolidate({ scenarios }, {}, parseRunArgs(['script.js']));
    const lines = banner('script.js', [], config.scenarios).split('\n');
    assert.deepEqual(lines.slice(-5, -1), [
      '     scenarios: (100.00%) 2 scenarios, 2 max VUs, 2.3s max duration (incl. graceful stop):',
      '              * a: 1 looping VUs for 2.25s',
      '              * b: 1 looping VUs for 1.349s',
      '',
    ]);
  });
});
