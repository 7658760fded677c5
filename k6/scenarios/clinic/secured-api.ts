// The secured clinic (9967): readers of owners and vets run as two scenarios at once (exec +
// scenario tag), and a probe without credentials must be refused with 401.
import { check, fail } from 'k6';
import http from 'k6/http';
import { basicAuth, clinicClient } from '../../lib/clinic.js';
import { clinicConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { SUMMARY_TREND_STATS, type ScenarioPlan } from '../../lib/options.js';
import { THINK_TIME } from '../../lib/think-time.js';
import { scenarioThresholds } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'clinic_secure',
  testType: 'security',
  suite: 'clinic-secure',
  fixedProfile: 'smoke',
};
const config = clinicConfig(__ENV);
if (!config.adminUser || !config.adminPassword) {
  throw new Error('ADMIN_USER and ADMIN_PASSWORD must be set for the secured clinic (npm run env:init)');
}
const clinic = clinicClient(config.secureBaseUrl, basicAuth(config.adminUser, config.adminPassword));

// Each scenario names its function with `exec` and carries its name as the `scenario` tag (the
// value k6 sets itself; written out so the script says what reports group by).
const scenario = (name: string, exec: string, vus: number, duration: string) => ({
  executor: 'constant-vus',
  exec,
  vus,
  duration,
  tags: { test_type: plan.testType, suite: plan.suite, scenario: name },
});

export const options = {
  scenarios: {
    owners_reader: scenario('owners_reader', 'ownersReader', 2, '20s'),
    vets_reader: scenario('vets_reader', 'vetsReader', 1, '20s'),
    anonymous_probe: scenario('anonymous_probe', 'anonymousProbe', 1, '10s'),
  },
  thresholds: {
    ...scenarioThresholds(plan.fixedProfile!),
    // k6 tags every sample with its scenario's name, so each scenario can carry its own threshold.
    'checks{scenario:anonymous_probe}': ['rate==1'],
  },
  summaryTrendStats: SUMMARY_TREND_STATS,
};

export function ownersReader(): void {
  check(clinic.get('/owners', '/owners'), { 'owners listed 200': (r) => r.status === 200 });
  endIteration(THINK_TIME.clinic);
}

export function vetsReader(): void {
  check(clinic.get('/vets', '/vets'), { 'vets listed 200': (r) => r.status === 200 });
  endIteration(THINK_TIME.clinic);
}

export function anonymousProbe(): void {
  // 401 is the expected answer here, so it must not count as a failed request.
  const res = http.get(`${config.secureBaseUrl}/owners`, {
    tags: { endpoint: 'clinic', name: 'GET /owners (anonymous)' },
    responseCallback: http.expectedStatuses(401),
  });
  if (res.status === 0) fail(`secured clinic unreachable at ${config.secureBaseUrl}`);
  check(res, { 'anonymous refused 401': (r) => r.status === 401 });
  endIteration(THINK_TIME.clinicProbe);
}

export const handleSummary = summaryHandler(plan, 'clinic-secure');

/** With CLI shortcuts (--vus/--duration replace the scenarios, as in k6) the run reads owners. */
export default function (): void {
  ownersReader();
}
