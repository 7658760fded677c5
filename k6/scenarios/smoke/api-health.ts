// Smoke: is the sandbox up and fast? Health, anonymous users, login, with short pauses.
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { endIteration, think } from '../../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { getHealth, getUsers, login } from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';

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
  think(THINK_TIME.smokeStep);
  getUsers(config.baseUrl);
  think(THINK_TIME.smokeStep);
  login(config.baseUrl, config.email, config.password);
  endIteration(THINK_TIME.smokeEnd);
}

export const handleSummary = summaryHandler(plan, 'smoke');
