// Scenario layouts whose VUs do and do not overlap in time, with what real k6 v1.3.0 answered for
// each (`k6 inspect --execution-requirements`, recorded 2026-11-26): the most VUs the test may hold
// (k6 counts a VU once when its scenarios never run at the same time) and its total duration.
// runner/executors/execution-plan.test.ts holds the runner's plan to these numbers;
// runner/run/execution-plan-k6.e2e.test.ts checks them against the real k6, and the runner's banner
// against real k6's.

export interface PlanLayout {
  name: string;
  scenarios: Record<string, Record<string, unknown>>;
  k6: { maxVUs: number; totalDuration: string };
}

const RAMP_DOWN = {
  executor: 'ramping-vus',
  startVUs: 4,
  stages: [{ duration: '1s', target: 0 }],
  gracefulStop: '0s',
};

/** 0 VUs for 1 s, then 3 at once for 1 s. */
const RISE_AT_1S = [
  { duration: '1s', target: 0 },
  { duration: '0s', target: 3 },
  { duration: '1s', target: 3 },
];

/** 2 VUs down to 0 and back at 2 s, then down to 0 by 5 s; 1 s of gracefulRampDown (execution-plan.test.ts). */
export const HELD_DIP = {
  executor: 'ramping-vus',
  startVUs: 2,
  gracefulRampDown: '1s',
  gracefulStop: '0s',
  stages: [
    { duration: '2s', target: 0 },
    { duration: '0s', target: 2 },
    { duration: '1s', target: 2 },
    { duration: '2s', target: 0 },
    { duration: '5s', target: 0 },
  ],
};

export const PLAN_LAYOUTS: PlanLayout[] = [
  {
    name: 'one after the other: the second starts when the first ends',
    scenarios: {
      first: { executor: 'constant-vus', vus: 5, duration: '1s', gracefulStop: '0s' },
      second: { executor: 'per-vu-iterations', vus: 3, iterations: 1, startTime: '1s' },
    },
    k6: { maxVUs: 5, totalDuration: '10m31s' },
  },
  {
    name: 'overlapping: the second starts while the first runs',
    scenarios: {
      first: { executor: 'constant-vus', vus: 5, duration: '1s', gracefulStop: '0s' },
      second: { executor: 'per-vu-iterations', vus: 3, iterations: 1, startTime: '500ms' },
    },
    k6: { maxVUs: 8, totalDuration: '10m30.5s' },
  },
  {
    name: 'at the same instant, an earlier-listed scenario rising is counted before a later-listed one ending',
    scenarios: {
      a: { executor: 'ramping-vus', startVUs: 0, stages: RISE_AT_1S },
      b: { executor: 'constant-vus', vus: 3, duration: '1s', gracefulStop: '0s' },
    },
    k6: { maxVUs: 6, totalDuration: '32s' },
  },
  {
    name: 'at the same instant, an earlier-listed scenario ending frees its VUs before a later-listed one rises',
    scenarios: {
      a: { executor: 'constant-vus', vus: 3, duration: '1s', gracefulStop: '0s' },
      b: { executor: 'ramping-vus', startVUs: 0, stages: RISE_AT_1S },
    },
    k6: { maxVUs: 3, totalDuration: '32s' },
  },
  {
    name: "an arrival-rate pool's unplanned VUs, then a scenario after it",
    scenarios: {
      rate: {
        executor: 'constant-arrival-rate',
        rate: 10,
        duration: '1s',
        preAllocatedVUs: 2,
        maxVUs: 6,
        gracefulStop: '0s',
      },
      after: { executor: 'constant-vus', vus: 5, duration: '1s', startTime: '1s' },
    },
    k6: { maxVUs: 6, totalDuration: '32s' },
  },
  {
    name: 'ramping down with gracefulRampDown holds the VUs while a second scenario starts',
    scenarios: {
      down: { ...RAMP_DOWN, gracefulRampDown: '10s' },
      other: { executor: 'constant-vus', vus: 2, duration: '1s', startTime: '600ms' },
    },
    k6: { maxVUs: 6, totalDuration: '31.6s' },
  },
  {
    name: 'ramping down without gracefulRampDown frees them',
    scenarios: {
      down: { ...RAMP_DOWN, gracefulRampDown: '0s' },
      other: { executor: 'constant-vus', vus: 2, duration: '1s', startTime: '600ms' },
    },
    k6: { maxVUs: 4, totalDuration: '31.6s' },
  },
  {
    name: 'a ramp that reaches 0 before its gracefulStop ends the test there',
    scenarios: { down: { ...RAMP_DOWN, gracefulStop: '30s', gracefulRampDown: '0s' } },
    k6: { maxVUs: 4, totalDuration: '1s' },
  },
  {
    name: 'up and down several times, gracefulRampDown shorter than the dips, beside a late scenario',
    scenarios: {
      waves: {
        executor: 'ramping-vus',
        startVUs: 4,
        stages: [
          { duration: '2s', target: 6 },
          { duration: '5s', target: 1 },
          { duration: '4s', target: 5 },
          { duration: '4s', target: 1 },
          { duration: '3s', target: 4 },
          { duration: '3s', target: 1 },
          { duration: '1s', target: 0 },
        ],
        gracefulRampDown: '2s',
        gracefulStop: '5s',
      },
      late: {
        executor: 'ramping-arrival-rate',
        startRate: 1,
        preAllocatedVUs: 1,
        maxVUs: 3,
        startTime: '12s',
        stages: [{ duration: '5s', target: 4 }],
      },
    },
    k6: { maxVUs: 8, totalDuration: '47s' },
  },
  {
    name: 'a dip the ramp climbs back from within gracefulRampDown is held; the last ramp down ends the test',
    scenarios: { dip: HELD_DIP },
    k6: { maxVUs: 2, totalDuration: '6s' },
  },
  {
    name: 'a total of 2.25 s, which the banner rounds to 2.3s (halfway away from zero)',
    scenarios: { only: { executor: 'constant-vus', vus: 1, duration: '2250ms', gracefulStop: '0s' } },
    k6: { maxVUs: 1, totalDuration: '2.25s' },
  },
  {
    name: 'a total of 2.349 s, which the banner rounds down to 2.3s',
    scenarios: {
      a: { executor: 'constant-vus', vus: 1, duration: '2250ms', gracefulStop: '0s' },
      b: {
        executor: 'per-vu-iterations',
        vus: 2,
        iterations: 1,
        maxDuration: '1349ms',
        gracefulStop: '0s',
        startTime: '1s',
      },
    },
    k6: { maxVUs: 3, totalDuration: '2.349s' },
  },
];

/**
 * A k6 script with the layout's scenarios and an empty default function; with `abortInSetup`, its
 * setup aborts the test, so that `run` prints the banner and ends at once (exit 108).
 */
export function layoutScript(layout: PlanLayout, { abortInSetup = false } = {}): string {
  const options = `export const options = { scenarios: ${JSON.stringify(layout.scenarios)} };\n`;
  const setup = abortInSetup
    ? "import exec from 'k6/execution';\nexport function setup() { exec.test.abort('the banner only'); }\n"
    : '';
  return `${setup}${options}export default function () {}\n`;
}
