// The main thread's functions, as the isolate was handed them (../../bridge/isolate-api.ts). Taken
// from the global once, by the isolate's first module, and the global deleted.
import { ISOLATE_HOST_GLOBAL, type IsolateHostApi } from '../../bridge/isolate-api.js';
import type { WorkerInit } from '../worker-init.js';

const scope = globalThis as Record<string, unknown>;
export const host = scope[ISOLATE_HOST_GLOBAL] as IsolateHostApi<WorkerInit>;
delete scope[ISOLATE_HOST_GLOBAL];

/** V8's full collection, exposed to the isolate's contexts by the host's --expose-gc (collection.ts). */
export const fullCollection = scope.gc as (() => void) | undefined;
// V8 defines it non-configurable but writable: k6 has no gc, so neither does the script.
if (!Reflect.deleteProperty(scope, 'gc')) scope.gc = undefined;
