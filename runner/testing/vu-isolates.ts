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

/** What makes the runner host its VUs in shared isolates (host/shared-isolate-host.ts, the default). */
export const SHARED_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'shared' };

/** What makes the runner host its VUs in an isolate each (host/isolate-host.ts, isolated-vm). */
export const ISOLATE_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'isolate' };

/**
 * The runner's VU hosts, for tests that hold them all to one expectation: shared isolates (the
 * default), an isolate per VU, workers.
 */
export const VU_HOSTS: readonly (readonly [host: string, env: Readonly<Record<string, string>>])[] = [
  ['shared isolates', SHARED_HOST_ENV],
  ['isolates', ISOLATE_HOST_ENV],
  ['workers', WORKER_HOST_ENV],
];

/** The hosts that run scripts with asynchronous code (isolated-vm's hears of no unhandled rejection). */
export const ASYNC_HOSTS: readonly (readonly [host: string, env: Readonly<Record<string, string>>])[] = [
  ['shared isolates', SHARED_HOST_ENV],
  ['workers', WORKER_HOST_ENV],
];
