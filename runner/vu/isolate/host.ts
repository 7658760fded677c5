// The main thread's functions, as the isolate was handed them (../../bridge/isolate-api.ts): taken
// from the global when the VU starts (entry.ts), and the global deleted. The modules that use them
// read `host` only when called, so their code can be evaluated before any VU exists (the snapshot
// every VU isolate starts from, host/isolate-host.ts).
import { ISOLATE_HOST_GLOBAL, type IsolateHostApi } from '../../bridge/isolate-api.js';
import type { WorkerInit } from '../worker-init.js';

const scope = globalThis as Record<string, unknown>;

export let host: IsolateHostApi<WorkerInit>;

/** V8's full collection, exposed to the isolate's contexts by the host's --expose-gc (collection.ts). */
export let fullCollection: (() => void) | undefined;

/** Takes the host's functions and V8's gc off the global, for this module's users alone. */
export function takeHost(): void {
  host = scope[ISOLATE_HOST_GLOBAL] as IsolateHostApi<WorkerInit>;
  delete scope[ISOLATE_HOST_GLOBAL];
  fullCollection ??= scope.gc as (() => void) | undefined;
  // V8 defines gc non-configurable but writable: k6 has no gc, so neither does the script.
  if (scope.gc !== undefined && !Reflect.deleteProperty(scope, 'gc')) scope.gc = undefined;
}
