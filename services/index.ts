// @loadlab/services' API, what the lab (its scripts, stack, dashboards, tests) may use; deeper modules are
// the services' own. The two apps, their start-up as `npm run start:*` runs them, and what their
// entry points use to start and stop (also alone, light: @loadlab/services/start-and-stop).
export { createSandboxApp } from './sandbox/app.js';
export type { SandboxConfig } from './sandbox/config.js';
export { planSandbox, startSandbox } from './sandbox/main.js';
export { createClinicApp } from './clinic/app.js';
export { planClinic, startClinic, type StartHooks } from './clinic/main.js';
export * from './start-and-stop.js';
