// Journey: a signed-in user fetches the team, browses the dashboard and the team page; the whole
// iteration's wall-clock time goes to journey_duration.
import { group } from 'k6';
import { Trend } from 'k6/metrics';
import { suiteConfig } from '../lib/config.js';
import { summaryHandler } from '../lib/handle-summary.js';
import { endIteration, think } from '../lib/iteration.js';
import { rampingOptions, type ScenarioPlan } from '../lib/options.js';
import { getStaticPage, getUsers, login } from '../lib/requests.js';
import { THINK_TIME } from '../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'journey_auth',
  testType: 'journey',
  suite: 'authenticated-user',
  defaultProfile: 'load',
};
const config = suiteConfig(__ENV);
const journeyDuration = new Trend('journey_duration');

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  const started = Date.now();
  const token = group('01_login', () => {
    const { token } = login(config.baseUrl, config.email, config.password);
    think(THINK_TIME.journeyLogin);
    return token;
  });
  group('02_fetch_users', () => {
    getUsers(config.baseUrl, token);
    think(THINK_TIME.journeyStep);
  });
  group('03_browse_dashboard', () => {
    getStaticPage(config.baseUrl, 'dashboard');
    think(THINK_TIME.journeyStep);
  });
  group('04_browse_team', () => {
    getStaticPage(config.baseUrl, 'team');
    think(THINK_TIME.journeyStep);
  });
  journeyDuration.add(Date.now() - started);
  // The last step's pause (in 04_browse_team, as the spec has it) ended the iteration.
  endIteration();
}

export const handleSummary = summaryHandler(plan, 'authenticated-user');
