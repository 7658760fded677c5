// Smoke: is the sandbox up and fast? Health, anonymous users, login, with short pauses.
import { sleep } from 'k6';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers, login } from '../../lib/requests.js';

const plan: ScenarioPlan = {
  name: 'smoke_api',
  testType: 'smoke',
  suite: 'api-health',
  defaultProfile: 'smoke',
};
const config = suiteConfig(__ENV);

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  getHealth(config.baseUrl);
  sleep(0.5);
  getUsers(config.baseUrl);
  sleep(0.5);
  login(config.baseUrl, config.email, config.password);
  sleep(1);
}

export const handleSummary = summaryHandler(plan, 'smoke');
