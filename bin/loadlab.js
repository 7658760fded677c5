#!/usr/bin/env node
// Entry point of the lab's `loadlab` command: @loadlab/runner's command line with the report's live web
// dashboard plugged in (the runner imports nothing of the report; k6 builds its dashboard in likewise).
import { register } from 'tsx/esm/api';

register();
const { registerDashboard, runCommandLine } = await import('@loadlab/runner');
registerDashboard(async (base) => (await import('../report/live/index.ts')).dashboardFromEnv(base));
await runCommandLine();
