// What runs a script's VUs, when the script needs nothing of Node's that an isolate lacks: threads that
// share V8 isolates, ten VUs to an isolate (shared-isolate-host.ts, the runner's own addon); where the
// addon cannot be built or loaded, a bare V8 isolate each (isolate-host.ts, isolated-vm) for scripts
// without asynchronous code; else, and for scripts that need Node, a Node worker each (worker-host.ts). LOADLAB_VU_HOST=shared|isolate|worker
// asks for one; the line saying which host runs and why is given to the caller to log.
import { NODE_BOUND_MODULES, PROMISE_MODULES } from '../bridge/worker-host-modules.js';
import type { ScriptBundle } from '../script/load-script.js';
import { mayThrowNonErrors } from '../script/thrown-literals.js';
import { loadIsolatedVm, prepareIsolateCode, startIsolateVuCode } from './isolate-host.js';
import { prepareSharedIsolates, startSharedIsolateVuCode, vusPerIsolate } from './shared-isolate-host.js';
import type { StartVuCode } from './vu-code-host.js';
import { startWorkerVuCode } from './worker-host.js';

export type VuHostName = 'isolate' | 'shared' | 'worker';

export interface VuHostChoice {
  name: VuHostName;
  start: StartVuCode;
  /** Why the workers, when they were chosen. */
  reason?: string;
  /** The line the run logs about its VUs' host: at debug level, or as a warning when degraded. */
  note?: string;
  /** Set when the host asked for could not be had here (not the script's doing): worth a warning. */
  degraded?: true;
}

const NODE_BOUND = new Set<string>(NODE_BOUND_MODULES);
const PROMISING = new Set<string>(PROMISE_MODULES);

/**
 * Why this script needs a worker host, or undefined. Besides the Node-bound modules: WebCrypto is
 * Node's, and so is Response.html()'s parser; a thrown literal's frames come from an inspector
 * session (vu/thrown-values.ts); the modules whose calls return promises are built on workers only.
 */
export function workerOnlyReason(bundle: ScriptBundle): string | undefined {
  const module = (bundle.k6Imports ?? []).find((name) => NODE_BOUND.has(name));
  if (module) return `the script imports ${module}`;
  const promising = (bundle.k6Imports ?? []).find((name) => PROMISING.has(name));
  if (promising) return `the script imports ${promising}, whose calls return promises`;
  const code = bundle.code;
  if (/\bcrypto\s*\.\s*(subtle|getRandomValues|randomUUID)\b/.test(code)) return 'the script uses WebCrypto';
  // Response.html() parses with k6/html's parser (cheerio, a Node package).
  if (/\.\s*html\s*\(/.test(code)) return 'the script parses HTML (Response.html())';
  if (mayThrowNonErrors(code)) return 'the script may throw a value that is not an Error';
  return undefined;
}

/**
 * Why isolated-vm's VUs cannot run this script (workers can, and the shared-isolate host): a promise
 * left rejected with no handler must be heard of, and isolated-vm tells of none.
 */
export function asyncCodeReason(bundle: ScriptBundle): string | undefined {
  if (bundle.topLevelAwait || /\basync\b|\bawait\b|\bPromise\b|\.then\s*\(/.test(bundle.code))
    return 'the script has asynchronous code';
  return undefined;
}

/** Whether VUs will likely be isolates (not forced to workers, a host of isolates loads): then no worker is warmed. */
export function isolatesLikely(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.LOADLAB_VU_HOST === 'worker') return false;
  // Built while the script is; awaited by chooseVuHost.
  if (env.LOADLAB_VU_HOST !== 'isolate' && typeof vusPerIsolate(env) === 'number') {
    void prepareSharedIsolates(env).catch(() => undefined);
    return true;
  }
  const lib = loadIsolatedVm();
  if (lib instanceof Error) return false;
  void prepareIsolateCode().catch(() => undefined);
  return true;
}

const VU_HOST_NAMES = ['isolate', 'shared', 'worker'];

/** Why LOADLAB_VU_HOST or LOADLAB_VUS_PER_ISOLATE cannot be used, in one line; undefined when they can. */
export function vuHostEnvError(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const name = env.LOADLAB_VU_HOST;
  if (name && !VU_HOST_NAMES.includes(name))
    return `LOADLAB_VU_HOST must be one of ${VU_HOST_NAMES.join(', ')}, not '${name}'`;
  const perIsolate = vusPerIsolate(env);
  return typeof perIsolate === 'string' ? perIsolate : undefined;
}

/** The host for this script's VUs, ready to start them (the isolate's code built). */
export async function chooseVuHost(
  bundle: ScriptBundle,
  env: NodeJS.ProcessEnv = process.env,
): Promise<VuHostChoice> {
  const worker = (reason: string): VuHostChoice => ({
    name: 'worker',
    start: startWorkerVuCode,
    reason,
    note: `VUs run in worker threads: ${reason}`,
  });
  if (env.LOADLAB_VU_HOST === 'worker') return worker('LOADLAB_VU_HOST=worker');
  const scriptReason = workerOnlyReason(bundle);
  if (scriptReason) return worker(scriptReason);
  let sharedFailed: string | undefined;
  if (env.LOADLAB_VU_HOST !== 'isolate') {
    const perIsolate = vusPerIsolate(env);
    const failed = await prepareSharedIsolates(env).then(
      () => undefined,
      (error: Error) => error,
    );
    if (!failed)
      return {
        name: 'shared',
        start: startSharedIsolateVuCode,
        note: `VUs share V8 isolates, ${perIsolate} per isolate`,
      };
    sharedFailed = `the runner's VU host addon cannot be used on Node ${process.version} (${failed.message.split('\n')[0]}; scripts/setup.sh installs the build tools)`;
  }
  const asyncCode = asyncCodeReason(bundle);
  if (asyncCode)
    return sharedFailed
      ? { ...worker(`${asyncCode}, and ${sharedFailed}`), degraded: true }
      : worker(`${asyncCode} (LOADLAB_VU_HOST=isolate)`);
  const lib = loadIsolatedVm();
  if (lib instanceof Error) {
    const why = lib.message.split('\n')[0];
    const reason = `${sharedFailed ? `${sharedFailed}, and ` : ''}isolated-vm cannot be used on Node ${process.version} (${why}), so each VU costs a Node worker: start it as 'loadlab' or 'npm run loadlab', which pass --no-node-snapshot, or rebuild isolated-vm (scripts/setup.sh installs the build tools; then npm rebuild isolated-vm)`;
    return { ...worker(reason), degraded: true };
  }
  await prepareIsolateCode();
  const isolate: VuHostChoice = { name: 'isolate', start: startIsolateVuCode };
  return sharedFailed
    ? { ...isolate, note: `VUs run in isolates of their own: ${sharedFailed}`, degraded: true }
    : isolate;
}
