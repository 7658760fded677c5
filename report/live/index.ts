// The live web dashboard, registered into the runner by the lab's bin/loadlab.js (the runner's
// registerDashboard), built from k6's K6_WEB_DASHBOARD_* variables.
import type { Output, OutputContext } from '@loadlab/runner';
import { createDashboardOutput, parsePeriod } from './dashboard-output.js';

export { createDashboardOutput, parsePeriod, thresholdSources } from './dashboard-output.js';
export type { DashboardOptions, DashboardOutput } from './dashboard-output.js';

/** The dashboard as K6_WEB_DASHBOARD_HOST, _PORT, _EXPORT, _PERIOD and _OPEN configure it (k6's names and defaults). */
export function dashboardFromEnv(base: Omit<OutputContext, 'argument'>): Output {
  const env = base.env;
  return createDashboardOutput({
    ...base,
    argument: '',
    host: env.K6_WEB_DASHBOARD_HOST || '127.0.0.1',
    port: Number(env.K6_WEB_DASHBOARD_PORT || 5665),
    exportPath: env.K6_WEB_DASHBOARD_EXPORT || undefined,
    period: parsePeriod(env.K6_WEB_DASHBOARD_PERIOD),
    open: env.K6_WEB_DASHBOARD_OPEN === 'true',
  });
}
