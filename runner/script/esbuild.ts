// esbuild for the runner's own modules. esbuild is CommonJS: it is required, not imported, so Node's
// ES module loader never runs its CommonJS lexer over esbuild's 100 KB main.js, and V8 never optimises
// that lexer on a background thread that a short run's exit then waits for (start-work.e2e.test.ts).
import type * as Esbuild from 'esbuild';
import { createRequire } from 'node:module';

export const esbuild = createRequire(import.meta.url)('esbuild') as typeof Esbuild;
