#!/usr/bin/env -S node --no-node-snapshot
// Entry point of @loadlab/runner's `loadlab` command. In the installed package the runner beside it is
// compiled JavaScript; in the repository it is TypeScript, run through tsx. Either way a Node older
// than the package's engines gets one line first, then the command line runs and exits with its code.
// (The lab's bin/loadlab.js adds the web dashboard.)
import { existsSync } from 'node:fs';
import { refuseOldNode } from './node-version.js';

refuseOldNode(new URL('../package.json', import.meta.url));
const compiled = existsSync(new URL('./run-command-line.js', import.meta.url));
if (!compiled) {
  const { register } = await import('tsx/esm/api');
  register();
}
const { runCommandLine } = await import(compiled ? './run-command-line.js' : './run-command-line.ts');
await runCommandLine();
