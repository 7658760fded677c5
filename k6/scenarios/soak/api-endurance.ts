// Soak: 15 VUs for LT_SOAK_MINUTES (default 30) to surface leaks and slow drift.
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers, login } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'soak_api',
  testType: 'soak',
  suite: 'api-endurance',
  defaultProfile: 'soak',
};
const config = suiteConfig(__ENV);

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  getHealth(config.baseUrl);
  const { token } = login(config.baseUrl, config.email, config.password);
  getUsers(config.baseUrl, token);
  endIteration(THINK_TIME.soak);
}

export const handleSummary = summaryHandler(plan, 'soak');
