#!/usr/bin/env node
// Entry point of the `loadlab` command: the runner compiled to JavaScript when it can be
// (bin/compiled-runner.js: no TypeScript loader at start-up), else the TypeScript sources through tsx.
import { compiledRoot } from './compiled-runner.js';

const root = await compiledRoot();
if (!root) {
  const { register } = await import('tsx/esm/api');
  register();
}
/** A module of the runner, compiled or from its sources: `runner/cli` -> .../runner/cli.(js|ts). */
const runnerModule = (path) =>
  new URL(`${path}.${root ? 'js' : 'ts'}`, root ?? new URL('../', import.meta.url));
await import(runnerModule('runner/cli'));
