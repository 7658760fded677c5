#!/usr/bin/env node
// Entry point of the `loadlab` command: registers tsx so the TypeScript runner runs as is.
import { register } from 'tsx/esm/api';

register();
await import('../runner/cli.ts');
