// Threshold sets per profile, exactly as the spec's table; breakpoint uses the stress set and ci
// the smoke set (ci is the smoke gate of pull requests). Pure, unit-tested under Node.
import type { ProfileName } from './profiles.js';

export type ThresholdSet = Record<string, string[]>;

const SMOKE: ThresholdSet = {
  http_req_failed: ['rate<0.005'],
  http_req_duration: ['p(95)<1500', 'avg<800'],
  'http_req_duration{endpoint:health}': ['p(95)<500'],
  'http_req_duration{endpoint:users}': ['p(95)<1500'],
  'http_req_duration{endpoint:auth_login}': ['p(95)<2000'],
  checks: ['rate>0.99'],
};

const LOAD: ThresholdSet = {
  http_req_failed: ['rate<0.01'],
  http_req_duration: ['p(95)<2500', 'p(99)<6000'],
  'http_req_duration{endpoint:health}': ['p(95)<800'],
  'http_req_duration{endpoint:users}': ['p(95)<2000'],
  'http_req_duration{endpoint:auth_login}': ['p(95)<3000'],
  checks: ['rate>0.98'],
};

const STRESS: ThresholdSet = {
  http_req_failed: ['rate<0.05'],
  http_req_duration: ['p(95)<5000'],
  checks: ['rate>0.95'],
};

const SOAK: ThresholdSet = {
  http_req_failed: ['rate<0.005'],
  http_req_duration: ['p(95)<2500', 'avg<1200'],
  checks: ['rate>0.99'],
};

const BY_PROFILE: Record<ProfileName, ThresholdSet> = {
  smoke: SMOKE,
  ci: SMOKE,
  load: LOAD,
  stress: STRESS,
  spike: STRESS,
  breakpoint: STRESS,
  soak: SOAK,
};

/** Thresholds of the custom metrics, each used by the scenario that records it. */
export const CUSTOM_THRESHOLDS = {
  login_duration: ['p(95)<2000'],
  login_errors: ['rate<0.01'],
  users_list_duration: ['p(95)<2000'],
  login_flow_duration: ['p(95)<4000'],
  spike_failures: ['rate<0.10'],
  browser_page_load: ['p(95)<5000'],
} as const satisfies ThresholdSet;

/** The gate of every scenario: at least one iteration ran to its end (see iteration.ts). */
export const GATE_THRESHOLDS = {
  completed_iterations: ['count>0'],
} as const satisfies ThresholdSet;

/** A fresh copy: callers add scenario thresholds without touching the shared sets. */
export function thresholdsFor(profile: ProfileName, extra: ThresholdSet = {}): ThresholdSet {
  const merged: ThresholdSet = {};
  for (const [key, list] of Object.entries({ ...BY_PROFILE[profile] })) merged[key] = [...list];
  for (const [key, list] of Object.entries(extra)) merged[key] = [...(merged[key] ?? []), ...list];
  return merged;
}

/** A scenario's thresholds: the profile's set, its own, and the gate that fails a run that measured nothing. */
export function scenarioThresholds(profile: ProfileName, extra: ThresholdSet = {}): ThresholdSet {
  return thresholdsFor(profile, { ...extra, ...GATE_THRESHOLDS });
}
