// Soak: 15 VUs for LT_SOAK_MINUTES (default 30) to surface leaks and slow drift.
import { sleep } from 'k6';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { thinkTime } from '../../lib/pick.js';
import { getHealth, getUsers, login } from '../../lib/requests.js';

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
  sleep(thinkTime(1, 3));
}

export const handleSummary = summaryHandler(plan, 'soak');
