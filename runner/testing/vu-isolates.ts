// Tests of the VU isolates skip, with one line saying why, where this Node has none.
import { loadIsolatedVm } from '../host/isolate-host.js';

/** Skips the test where isolated-vm cannot be loaded on this Node, or workers were asked for. */
export function isolatesOrSkip(context: Mocha.Context): void {
  const lib = loadIsolatedVm();
  if (lib instanceof Error || process.env.LOADLAB_VU_HOST === 'worker') {
    console.warn(
      `      skipped: no VU isolates on Node ${process.version} (${lib instanceof Error ? lib.message.split('\n')[0] : 'LOADLAB_VU_HOST=worker'})`,
    );
    context.skip();
  }
}

/** What makes the runner host its VUs in Node workers instead of isolates. */
export const WORKER_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'worker' };

/** What makes the runner host its VUs in shared isolates (host/shared-isolate-host.ts). */
export const SHARED_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'shared' };

/**
 * The runner's VU hosts, for tests that hold them all to one expectation: isolates (the default),
 * shared isolates, workers.
 */
export const VU_HOSTS: readonly (readonly [host: string, env: Readonly<Record<string, string>>])[] = [
  ['isolates', {}],
  ['shared isolates', SHARED_HOST_ENV],
  ['workers', WORKER_HOST_ENV],
];
