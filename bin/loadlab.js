#!/usr/bin/env node
// The lab's `loadlab` command (package.json's bin, `npm run loadlab`, run-k6.sh's Node engine). There are
// two bins of that name on purpose: runner/bin/loadlab.js is @loadlab/runner's own, what a user who
// installs the runner alone gets; this one is the same command line with the report's live web dashboard
// plugged in, which the runner cannot import (it sits below the report; k6 builds its dashboard in
// likewise). It runs the runner compiled to JavaScript when it can (bin/compiled-runner.js: the packages
// a user installs, staged as npm pack stages them; no TypeScript loader at start-up), else the
// TypeScript sources through tsx. A Node older than the lab's engines gets one line first (the runner's
// check).
import { cacheCompiledModules } from '../runner/bin/compile-cache.js';
import { refuseOldNode } from '../runner/bin/node-version.js';
import { compiledRoot } from './compiled-runner.js';
import { BUNDLE_DIR } from './runner-package.js';

refuseOldNode(new URL('../package.json', import.meta.url));
cacheCompiledModules();
const root = await compiledRoot();
if (!root) {
  const { register } = await import('tsx/esm/api');
  register();
}
/** A module of the lab, compiled or from its sources: `runner/index` -> .../runner/index.(js|ts). */
const labModule = (path) => new URL(`${path}.${root ? 'js' : 'ts'}`, root ?? new URL('../', import.meta.url));
// Compiled, the runner's package holds its modules bundled into one file too (bin/runner-package.js).
const runnerEntry = root ? new URL(`runner/${BUNDLE_DIR}/index.js`, root) : labModule('runner/index');
const { registerDashboard, runCommandLine } = await import(runnerEntry);
registerDashboard(async (base) => (await import(labModule('report/live/index'))).dashboardFromEnv(base));
await runCommandLine();
