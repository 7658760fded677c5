#!/usr/bin/env -S node --no-node-snapshot
// Entry point of @loadlab/runner's `loadlab` command: registers tsx so the TypeScript runner runs as is,
// then runs the command line and exits with its code. (The lab's bin/loadlab.js adds the web dashboard.)
import { register } from 'tsx/esm/api';

register();
const { runCommandLine } = await import('./run-command-line.ts');
await runCommandLine();
