// The secured clinic (9967): readers of owners and vets run as two scenarios at once (exec +
// scenario tag), and a probe without credentials must be refused with 401.
import { check, fail, sleep } from 'k6';
import http from 'k6/http';
import { basicAuth, clinicClient } from '../../lib/clinic.js';
import { clinicConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { SUMMARY_TREND_STATS, type ScenarioPlan } from '../../lib/options.js';
import { thresholdsFor } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'clinic_secure',
  testType: 'security',
  suite: 'clinic-secure',
  defaultProfile: 'smoke',
};
const config = clinicConfig(__ENV);
if (!config.adminUser || !config.adminPassword) {
  throw new Error('ADMIN_USER and ADMIN_PASSWORD must be set for the secured clinic (npm run env:init)');
}
const clinic = clinicClient(config.secureBaseUrl, basicAuth(config.adminUser, config.adminPassword));

const scenario = (exec: string, vus: number) => ({
  executor: 'constant-vus',
  exec,
  vus,
  duration: '20s',
  tags: { test_type: plan.testType, suite: plan.suite },
});

export const options = {
  scenarios: {
    owners_reader: scenario('ownersReader', 2),
    vets_reader: scenario('vetsReader', 1),
    anonymous_probe: { ...scenario('anonymousProbe', 1), duration: '10s' },
  },
  thresholds: {
    ...thresholdsFor('smoke'),
    // k6 tags every sample with its scenario's name, so each scenario can carry its own threshold.
    'checks{scenario:anonymous_probe}': ['rate==1'],
  },
  summaryTrendStats: SUMMARY_TREND_STATS,
};

export function ownersReader(): void {
  check(clinic.get('/owners', '/owners'), { 'owners listed 200': (r) => r.status === 200 });
  sleep(0.5);
}

export function vetsReader(): void {
  check(clinic.get('/vets', '/vets'), { 'vets listed 200': (r) => r.status === 200 });
  sleep(0.5);
}

export function anonymousProbe(): void {
  // 401 is the expected answer here, so it must not count as a failed request.
  const res = http.get(`${config.secureBaseUrl}/owners`, {
    tags: { endpoint: 'clinic', name: 'GET /owners (anonymous)' },
    responseCallback: http.expectedStatuses(401),
  });
  if (res.status === 0) fail(`secured clinic unreachable at ${config.secureBaseUrl}`);
  check(res, { 'anonymous refused 401': (r) => r.status === 401 });
  sleep(1);
}

export const handleSummary = summaryHandler(plan, 'clinic-secure');

/** With CLI shortcuts (--vus/--duration replace the scenarios, as in k6) the run reads owners. */
export default function (): void {
  ownersReader();
}
