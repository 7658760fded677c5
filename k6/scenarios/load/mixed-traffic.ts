// Mixed traffic: log in, then one weighted pick of what real users do most, then think time.
import { Trend } from 'k6/metrics';
import { suiteConfig } from '../../lib/config.js';
import { summaryHandler } from '../../lib/handle-summary.js';
import { rampingOptions, type ScenarioPlan } from '../../lib/options.js';
import { endIteration } from '../../lib/iteration.js';
import { weightedPick, type Weighted } from '../../lib/pick.js';
import {
  STATIC_PAGES,
  getHealth,
  getStaticPage,
  getUsers,
  login,
  type Response,
} from '../../lib/requests.js';
import { THINK_TIME } from '../../lib/think-time.js';

const plan: ScenarioPlan = {
  name: 'mixed_traffic',
  testType: 'load',
  suite: 'mixed-traffic',
  defaultProfile: 'load',
};
const config = suiteConfig(__ENV);
// A plain Trend, as the spec's metric table says (not a time Trend like login_duration).
const mixedRequestDuration = new Trend('mixed_request_duration');

type Action = (token: string | undefined) => Response;

export const ACTIONS: Weighted<Action>[] = [
  { weight: 35, value: () => getHealth(config.baseUrl) },
  { weight: 30, value: (token) => getUsers(config.baseUrl, token) },
  {
    weight: 15,
    value: () =>
      getStaticPage(config.baseUrl, weightedPick(STATIC_PAGES.map((p) => ({ weight: 1, value: p })))),
  },
  { weight: 20, value: () => getUsers(config.baseUrl) },
];

export const options = rampingOptions(plan, __ENV);

export default function (): void {
  const { token } = login(config.baseUrl, config.email, config.password);
  const res = weightedPick(ACTIONS)(token);
  mixedRequestDuration.add(res.timings.duration);
  endIteration(THINK_TIME.mixed);
}

export const handleSummary = summaryHandler(plan, 'mixed-traffic');
