// The main thread's functions, as the isolate was handed them (../../bridge/isolate-api.ts): made when
// the VU starts (entry.ts) of what the host set on the global, and the global deleted. The modules
// that use them read `host` only when called, so their code can be evaluated before any VU exists.
import type { IsolateHostApi, IsolateHostData, NativeDispatch } from '../../bridge/isolate-api.js';
import { ISOLATE_HOST_GLOBAL } from '../../bridge/isolate-api.js';
import type { WorkerInit } from '../worker-init.js';
import { completeNativeHost, type NativeHandlers } from './native-host.js';

const scope = globalThis as Record<string, unknown>;

export let host: IsolateHostApi<WorkerInit>;

/** V8's full collection, exposed to the isolate's contexts by the host's --expose-gc (collection.ts). */
export let fullCollection: (() => void) | undefined;

/**
 * Takes the host's data and V8's gc off the global, for this module's users alone; returns what runs
 * the dispatches the host hands the VU.
 */
export function takeHost(handle: NativeHandlers): (dispatch: NativeDispatch) => void {
  const made = completeNativeHost(scope[ISOLATE_HOST_GLOBAL] as IsolateHostData<WorkerInit>, handle);
  delete scope[ISOLATE_HOST_GLOBAL];
  host = made.host;
  fullCollection ??= scope.gc as (() => void) | undefined;
  // V8 defines gc non-configurable but writable: k6 has no gc, so neither does the script.
  if (scope.gc !== undefined && !Reflect.deleteProperty(scope, 'gc')) scope.gc = undefined;
  return made.dispatch;
}
