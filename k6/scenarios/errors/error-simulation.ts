// Error simulation: the sandbox's simulated 404 and 422 (expected, so http_req_failed stays 0 for
// them: its endpoint:errors threshold says so), between a health check and the users list. With the
// sandbox started as SANDBOX_FAULTS=true, LT_FAULT_ERROR_RATE / LT_FAULT_LATENCY_MS inject 503s and
// latency into every other request, and the profile's thresholds visibly fail (exit 99).
import { summaryHandler } from '../../lib/handle-summary.js';
import { simulateError } from '../../lib/errors.js';
import { suiteConfig } from '../../lib/config.js';
import { endIteration, think } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'error_simulation',
  testType: 'errors',
  suite: 'error-simulation',
  defaultProfile: 'smoke',
  thresholds: { 'http_req_failed{endpoint:errors}': ['rate==0'] },
};
const config = suiteConfig(__ENV);

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  getHealth(config.baseUrl);
  simulateError(config.baseUrl, 404);
  think(THINK_TIME.errors);
  simulateError(config.baseUrl, 422);
  getUsers(config.baseUrl);
  endIteration(THINK_TIME.errors);
}

export const handleSummary = summaryHandler(plan, 'error-simulation');
