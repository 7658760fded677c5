// The isolate's twin of modules/worker-host-modules.ts (vu/isolate-code.ts swaps them): a script that
// imports one of these modules runs on the worker host, so an isolate only needs to know the names.
import { WORKER_HOST_MODULES } from '../../modules/api/names.js';
import type { WorkerHostModule } from '../../bridge/worker-host-modules.js';
import type * as WorkerHostModules from '../../modules/worker-host-modules.js';

const unavailable = (name: WorkerHostModule) => (): never => {
  throw new Error(`${name} runs on the worker host: a VU isolate does not build it`);
};

export const workerHostBuilders: typeof WorkerHostModules.workerHostBuilders = Object.fromEntries(
  WORKER_HOST_MODULES.map((name) => [name, unavailable(name)]),
) as Record<WorkerHostModule, () => never>;

/** No gRPC in an isolate: nothing loads protos there. */
export const useProtoLoaderAt: typeof WorkerHostModules.useProtoLoaderAt = () => {};
