export { createDashboardOutput, parsePeriod, thresholdSources } from './dashboard-output.js';
export type { DashboardOptions, DashboardOutput } from './dashboard-output.js';
