// The runner's VU hosts, as tests ask for them by LOADLAB_VU_HOST.

/** What makes the runner host its VUs in Node workers instead of isolates. */
export const WORKER_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'worker' };

/** What makes the runner host its VUs in shared isolates (host/shared-isolate-host.ts, the default). */
export const SHARED_HOST_ENV: Readonly<Record<string, string>> = { LOADLAB_VU_HOST: 'shared' };

/** The runner's VU hosts, for tests that hold them all to one expectation: shared isolates (the default), workers. */
export const VU_HOSTS: readonly (readonly [host: string, env: Readonly<Record<string, string>>])[] = [
  ['shared isolates', SHARED_HOST_ENV],
  ['workers', WORKER_HOST_ENV],
];
