// Login under load: every iteration logs in, then pauses; login_duration and login_errors track the flow.
import { Rate, Trend } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { login } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';
import { CUSTOM_THRESHOLDS } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'load_auth',
  testType: 'load',
  suite: 'api-auth',
  defaultProfile: 'load',
  thresholds: {
    login_duration: [...CUSTOM_THRESHOLDS.login_duration],
    login_errors: [...CUSTOM_THRESHOLDS.login_errors],
  },
};
const config = suiteConfig(__ENV);
const loginDuration = new Trend('login_duration', true);
const loginErrors = new Rate('login_errors');

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  const { res, token } = login(config.baseUrl, config.email, config.password);
  loginDuration.add(res.timings.duration);
  loginErrors.add(res.status !== 200 || token === undefined);
  endIteration(THINK_TIME.loadAuth);
}

export const handleSummary = summaryHandler(plan, 'load-auth');
