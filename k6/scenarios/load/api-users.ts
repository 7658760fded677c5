// Users list under load with one token: setup logs in once and hands the token to every VU.
import { fail } from 'k6';
import { Trend } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getUsers, login } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';
import { CUSTOM_THRESHOLDS } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'load_users',
  testType: 'load',
  suite: 'api-users',
  defaultProfile: 'load',
  thresholds: { users_list_duration: [...CUSTOM_THRESHOLDS.users_list_duration] },
};
const config = suiteConfig(__ENV);
const usersListDuration = new Trend('users_list_duration', true);

export const options = rampingOptions(plan, __ENV);

export function setup(): { token: string } {
  const { token } = login(config.baseUrl, config.email, config.password);
  if (!token) fail('setup: login did not return a token; check DEMO_EMAIL/DEMO_PASSWORD and BASE_URL');
  return { token };
}

export default function (data: { token: string }): void {
  const res = getUsers(config.baseUrl, data.token);
  usersListDuration.add(res.timings.duration);
  endIteration(THINK_TIME.users);
}

export const handleSummary = summaryHandler(plan, 'load-users');
