// Journey: open the login page, log in through the API, land on the dashboard, as one timed flow;
// the pause after it is outside login_flow_duration.
import { check, group } from 'k6';
import { Trend } from 'k6/metrics';
import { suiteConfig } from '../lib/config.js';
import { summaryHandler } from '../lib/handle-summary.js';
import { endIteration } from '../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../lib/options.js';
import { getStaticPage, login } from '../lib/requests.js';
import { THINK_TIME } from '../lib/think-time.js';
import { CUSTOM_THRESHOLDS } from '../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'journey_login',
  testType: 'journey',
  suite: 'login-flow',
  defaultProfile: 'load',
  thresholds: { login_flow_duration: [...CUSTOM_THRESHOLDS.login_flow_duration] },
};
const config = suiteConfig(__ENV);
const loginFlowDuration = new Trend('login_flow_duration', true);

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  const started = Date.now();
  group('01_load_login_page', () => {
    getStaticPage(config.baseUrl, 'login');
  });
  group('02_api_login', () => {
    const result = login(config.baseUrl, config.email, config.password);
    check(result.res, {
      'login succeeds': (r) => r.status === 200,
      'token returned': () => typeof result.token === 'string' && result.token.length > 0,
    });
  });
  group('03_post_login_navigation', () => {
    getStaticPage(config.baseUrl, 'dashboard');
  });
  loginFlowDuration.add(Date.now() - started);
  endIteration(THINK_TIME.loginFlowEnd);
}

export const handleSummary = summaryHandler(plan, 'login-flow');
