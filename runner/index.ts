// @loadlab/runner's API, what the lab and other programs may use (deeper modules are internal):
// - main(argv): the `loadlab` command line (`run`, `version`, `help`), resolving to k6's exit code;
// - inspect(script): a script's options, each scenario's VUs and the whole test's max VUs and duration,
//   as `k6 inspect --execution-requirements`;
// - registerDashboard(factory): plug in the live web dashboard (the lab registers the report's);
// - the argument helpers the lab's k8s manifests reuse, the exit codes, and the output contracts.
export { main } from './main.js';
export { inspect, type Inspection, type ScenarioRequirements } from './inspect.js';
export { registerDashboard, type DashboardFactory } from './outputs/index.js';
export { parseRunArgs, splitInlineValue, UsageError, type RunFlags } from './cli/args.js';
export { EXIT } from './run/run.js';
export type { Output, OutputContext, ThresholdAwareOutput, VuModuleEnv } from './contracts.js';
export { runCommandLine } from './bin/run-command-line.js';
