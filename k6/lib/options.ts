// Builds a scenario's k6 options from the selected profile: one ramping-vus scenario tagged with
// test_type and suite, the profile's thresholds plus the scenario's own and the gate, and the trend stats the
// text summary and the reports read (p(99) is a load threshold, so it must be computed).
import { profileByName, selectProfileName, unknownProfileWarning, type ProfileName } from './profiles.js';
import { scenarioThresholds, type ThresholdSet } from './thresholds.js';

export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)', 'count'];

export interface ScenarioPlan {
  /** k6 scenario name, e.g. smoke_api. */
  name: string;
  testType: string;
  suite: string;
  /** The profile this script runs when LT_PROFILE is unset. */
  defaultProfile?: ProfileName;
  /** Scripts with their own executor (browser, secured clinic) always judge by this profile's set. */
  fixedProfile?: ProfileName;
  thresholds?: ThresholdSet;
}

/** LT_PROFILE when set, else the script's default, under the spec's selection rule. */
export function profileOf(plan: ScenarioPlan, env: Record<string, string | undefined>): ProfileName {
  if (plan.fixedProfile) return plan.fixedProfile;
  return selectProfileName(env.LT_PROFILE || plan.defaultProfile, env);
}

export function rampingOptions(plan: ScenarioPlan, env: Record<string, string | undefined>) {
  const profileName = profileOf(plan, env);
  // Said once, by the init that reads the options (VU 0), not by every VU: a typo such as
  // LT_PROFILE=lod must not silently turn a 7-minute load test into a 35 s smoke run.
  const warning = unknownProfileWarning(env);
  if (warning && typeof __VU !== 'undefined' && __VU === 0) console.warn(warning);
  // The script's own kind shapes a smoke run (a spike scenario under smoke still spikes).
  const profile = profileByName(profileName, env, plan.defaultProfile);
  return {
    scenarios: {
      [plan.name]: {
        executor: 'ramping-vus',
        startVUs: 0,
        stages: profile.stages,
        gracefulRampDown: profile.gracefulRampDown,
        tags: { test_type: plan.testType, suite: plan.suite },
      },
    },
    thresholds: scenarioThresholds(profileName, plan.thresholds),
    summaryTrendStats: SUMMARY_TREND_STATS,
  };
}
