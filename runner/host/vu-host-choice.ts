// What runs a script's VUs: threads that share V8 isolates, ten VUs to an isolate (shared-isolate-host.ts,
// the runner's own addon), when the script needs nothing of Node's that an isolate lacks; else, and
// where the addon cannot be built or loaded, a Node worker each (worker-host.ts).
// LOADLAB_VU_HOST=shared|worker asks for one; the line saying which host runs and why is given to the
// caller to log.
import { NODE_BOUND_MODULES, PROMISE_MODULES } from '../bridge/worker-host-modules.js';
import type { ScriptBundle } from '../script/load-script.js';
import { mayThrowNonErrors } from '../script/thrown-literals.js';
import { prepareSharedIsolates, startSharedIsolateVuCode, vusPerIsolate } from './shared-isolate-host.js';
import type { StartVuCode } from './vu-code-host.js';
import { startWorkerVuCode } from './worker-host.js';

export type VuHostName = 'shared' | 'worker';

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

/** Whether VUs will likely share isolates (not forced to workers): then no worker is warmed. */
export function isolatesLikely(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.LOADLAB_VU_HOST === 'worker' || typeof vusPerIsolate(env) !== 'number') return false;
  // Built while the script is; awaited by chooseVuHost.
  void prepareSharedIsolates(env).catch(() => undefined);
  return true;
}

const VU_HOST_NAMES = ['shared', 'worker'];

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
  const why = failed.message.split('\n')[0];
  return {
    ...worker(
      `the runner's VU host addon cannot be used on Node ${process.version} (${why}), so each VU costs a Node worker; scripts/setup.sh installs the build tools it needs`,
    ),
    degraded: true,
  };
}
