// The runner's execution plan against the numbers real k6 v1.3.0 gave for the same layouts
// (testing/plan-layouts.ts; run/execution-plan-k6.e2e.test.ts checks them against a live k6).
import assert from 'node:assert/strict';
import { formatDuration } from '@loadlab/k6-format/duration';
import { parseRunArgs } from '../cli/args.js';
import { consolidate } from '../options/options.js';
import { HELD_DIP, PLAN_LAYOUTS } from '../testing/plan-layouts.js';
import { endOffsetMs, executionPlan, maxPlannedVus, maxPossibleVus } from './execution-plan.js';
import { executorOf } from './index.js';

const scenariosOf = (scenarios: Record<string, unknown>) =>
  consolidate({ scenarios }, {}, parseRunArgs(['script.js'])).scenarios;

describe('runner/executors/execution-plan (k6 GetFullExecutionRequirements)', () => {
  for (const layout of PLAN_LAYOUTS) {
    it(`${layout.name}: k6's max VUs and total duration`, () => {
      const plan = executionPlan(scenariosOf(layout.scenarios));
      assert.deepEqual(
        { maxVUs: maxPossibleVus(plan), totalDuration: formatDuration(endOffsetMs(plan)) },
        layout.k6,
      );
    });
  }

  it('a ramp down is held for gracefulRampDown unless the ramp climbs back within it', () => {
    const [s] = scenariosOf({ r: HELD_DIP });
    const steps = executorOf(s!)
      .executionSteps(s!)
      .map((x) => [x.offsetNs / 1e6, x.plannedVus]);
    // 2 -> 1 at 1 s is back to 2 at 2 s, within the second of grace: held. Down again at 4 s and
    // 5 s, released 1 s later each; the end (10 s) takes back the rest.
    assert.deepEqual(steps, [
      [0, 2],
      [5000, 1],
      [6000, 0],
    ]);
  });

  it('the scheduler initialises the planned VUs: an arrival-rate pool its preAllocatedVUs', () => {
    const [rate, ramp] = scenariosOf({
      rate: {
        executor: 'ramping-arrival-rate',
        preAllocatedVUs: 2,
        maxVUs: 9,
        stages: [{ duration: '1s', target: 5 }],
      },
      ramp: { executor: 'ramping-vus', startVUs: 1, stages: [{ duration: '1s', target: 7 }] },
    });
    assert.equal(maxPlannedVus(executorOf(rate!).executionSteps(rate!)), 2);
    assert.equal(maxPossibleVus(executorOf(rate!).executionSteps(rate!)), 9);
    assert.equal(maxPlannedVus(executorOf(ramp!).executionSteps(ramp!)), 7);
  });
});
