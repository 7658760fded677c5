#!/usr/bin/env node
// @loadlab/runner's own `loadlab` command, what a user who installs the runner package alone gets. The
// lab's bin/loadlab.js is a second bin of the same name on purpose: the same command line with the
// report's live web dashboard plugged in, which this package cannot import. In the installed package the
// runner beside this file is compiled JavaScript, also bundled into bundle/ (bin/runner-package.js); in the
// repository it is TypeScript, run through tsx.
// Either way a Node older than the package's engines gets one line first, then the command line runs and
// exits with its code.
import { existsSync } from 'node:fs';
import { cacheCompiledModules } from './compile-cache.js';
import { refuseOldNode } from './node-version.js';

refuseOldNode(new URL('../package.json', import.meta.url));
cacheCompiledModules();
const compiled = existsSync(new URL('./run-command-line.js', import.meta.url));
// The package's bundle of the command line (bin/runner-package.js), where it was built.
const bundled = compiled && existsSync(new URL('../bundle/run-command-line.js', import.meta.url));
if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { runCommandLine } = await import(
  bundled ? '../bundle/run-command-line.js' : compiled ? './run-command-line.js' : './run-command-line.ts'
);
await runCommandLine();
