// Which k6 modules the Node runner serves, and what it says of the others before any VU starts: k6's
// own words for names k6 v1.3 refuses too (unknown, graduated, removed), and one line naming the module
// and the way out for the modules k6 has and the runner does not implement.
import {
  NODE_BOUND_MODULES,
  PROMISE_MODULES,
  type WorkerHostModule,
} from '../../bridge/worker-host-modules.js';

export const IMPLEMENTED_MODULES = [
  'k6',
  'k6/http',
  'k6/metrics',
  'k6/execution',
  'k6/encoding',
  'k6/crypto',
  'k6/timers',
  'k6/data',
  'k6/browser',
  'k6/experimental/fs',
  'k6/experimental/csv',
  'k6/secrets',
  'k6/experimental/streams',
  'k6/html',
  'k6/ws',
  'k6/experimental/websockets',
  'k6/net/grpc',
] as const;

export type ImplementedModule = (typeof IMPLEMENTED_MODULES)[number];

export function isImplementedModule(name: string): name is ImplementedModule {
  return (IMPLEMENTED_MODULES as readonly string[]).includes(name);
}

/** The modules only a worker-hosted VU builds: every one a module the runner serves. */
export const WORKER_HOST_MODULES: readonly WorkerHostModule[] & readonly ImplementedModule[] = [
  ...NODE_BOUND_MODULES,
  ...PROMISE_MODULES,
].filter((name): name is WorkerHostModule => name !== 'k6/browser');

export function isWorkerHostModule(name: string): name is WorkerHostModule {
  return (WORKER_HOST_MODULES as readonly string[]).includes(name);
}

/** Modules of k6 v1.3 the runner refuses (see runner/README.md, "k6 modules"). */
export const NOT_IMPLEMENTED_MODULES = ['k6/experimental/redis'] as const;

/** k6 v1.3's messages for names that moved or went away (each checked against the real k6). */
const RETIRED: Record<string, string> = {
  'k6/experimental/webcrypto':
    "k6/experimental/webcrypto has been graduated and it's now globally available as defined by standard WebAPIs. You just need to remove the import.",
  'k6/experimental/tracing':
    'k6/experimental/tracing has been removed. All of it functionality is available as pure JavaScript module. More info available at the docs: https://grafana.com/docs/k6/latest/javascript-api/jslib/http-instrumentation-tempo',
  'k6/experimental/browser':
    'k6/experimental/browser has been graduated, please use k6/browser instead.Please update your imports to use k6/browser instead of k6/experimental/browser, For more information, see the migration guide at the link: https://grafana.com/docs/k6/latest/using-k6-browser/migrating-to-k6-v0-52/',
  'k6/experimental/grpc':
    'k6/experimental/grpc has been graduated, please use k6/net/grpc instead. See https://grafana.com/docs/k6/latest/javascript-api/k6-net-grpc/ for more information.',
};

/** Why a script importing `name` cannot run here (undefined when the runner serves it). */
export function moduleProblem(name: string): string | undefined {
  if (isImplementedModule(name)) return undefined;
  if ((NOT_IMPLEMENTED_MODULES as readonly string[]).includes(name)) {
    return `${name} is a k6 module the Node runner does not implement: run this script on real k6 (scripts/run-k6.sh uses a k6 on PATH; LT_ENGINE=k6 or docker picks one)`;
  }
  return RETIRED[name] ?? `unknown module: ${name}`;
}
