#!/usr/bin/env node
// Entry point of the lab's `loadlab` command: registers tsx so the TypeScript runner runs as is, and
// plugs the report's live web dashboard into the runner (which imports nothing of the report).
import { register } from 'tsx/esm/api';

register();
const { registerDashboard } = await import('../runner/outputs/index.ts');
registerDashboard(async (base) => (await import('../report/live/index.ts')).dashboardFromEnv(base));
await import('../runner/cli.ts');
