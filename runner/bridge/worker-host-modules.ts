// The k6 modules whose VUs must be Node workers, known to both sides: the main thread picks the
// workers for a script that imports one (host/vu-host-choice.ts), and a VU isolate carries none of
// their code (modules/worker-host-modules.ts and its isolate twin).

/** Modules whose code here is Node's (playwright, cheerio, protobuf, ws, web streams). */
export const NODE_BOUND_MODULES = [
  'k6/browser',
  'k6/html',
  'k6/net/grpc',
  'k6/ws',
  'k6/experimental/websockets',
  'k6/experimental/streams',
] as const;

/**
 * Modules whose calls return promises: a rejection nobody handles must be heard of (k6 fails the
 * init with it, logs it in an iteration), and only Node's process event tells.
 */
export const PROMISE_MODULES = ['k6/experimental/fs', 'k6/experimental/csv', 'k6/secrets'] as const;

/** The modules only a worker-hosted VU builds (k6/browser, preloaded apart, aside). */
export type WorkerHostModule = Exclude<
  (typeof NODE_BOUND_MODULES)[number] | (typeof PROMISE_MODULES)[number],
  'k6/browser'
>;
