// Spike: a sudden burst to 100 VUs and back; spike_failures tracks how many requests failed.
import { Rate } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers, login } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';
import { CUSTOM_THRESHOLDS } from '../../lib/thresholds.js';

const plan: ScenarioPlan = {
  name: 'spike_api',
  testType: 'spike',
  suite: 'api-spike',
  defaultProfile: 'spike',
  thresholds: { spike_failures: [...CUSTOM_THRESHOLDS.spike_failures] },
};
const config = suiteConfig(__ENV);
const spikeFailures = new Rate('spike_failures');

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  spikeFailures.add(getHealth(config.baseUrl).status !== 200);
  const { res, token } = login(config.baseUrl, config.email, config.password);
  spikeFailures.add(res.status !== 200);
  spikeFailures.add(getUsers(config.baseUrl, token).status !== 200);
  endIteration(THINK_TIME.spike);
}

export const handleSummary = summaryHandler(plan, 'spike');
