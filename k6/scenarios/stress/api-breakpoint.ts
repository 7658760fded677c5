// Stress (and breakpoint with LT_PROFILE=breakpoint): ramp far beyond normal traffic and count
// responses that came back degraded (an error, or slower than a user would wait). Both run on
// ramping VUs (a closed model), so iterations keep the stress pause: no arrival-rate exception here.
import { Counter } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers, type Response } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'stress_api',
  testType: 'stress',
  suite: 'api-breakpoint',
  defaultProfile: 'stress',
};
const config = suiteConfig(__ENV);
const degradedResponses = new Counter('degraded_responses');
const DEGRADED_AFTER_MS = 2000;

export const options = rampingOptions(plan, __ENV);

function countDegraded(res: Response): void {
  if (res.status !== 200 || res.timings.duration > DEGRADED_AFTER_MS) degradedResponses.add(1);
}

export default function (): void {
  countDegraded(getHealth(config.baseUrl));
  countDegraded(getUsers(config.baseUrl));
  endIteration(THINK_TIME.stress);
}

export const handleSummary = summaryHandler(plan, 'stress');
