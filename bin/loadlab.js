#!/usr/bin/env node
// Entry point of the `loadlab` command: the runner compiled to JavaScript when it can be
// (bin/compiled-runner.js: no TypeScript loader at start-up), else the TypeScript sources through tsx.
import { compiledCli } from './compiled-runner.js';

const compiled = await compiledCli();
if (compiled) await import(compiled);
else {
  const { register } = await import('tsx/esm/api');
  register();
  await import('../runner/cli.ts');
}
