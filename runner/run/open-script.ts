// The first phase of a run: the secret sources, the script found and bundled, and the k6 modules
// it imports checked, each failure in k6's one line and exit code before any VU starts.
import { resolve } from 'node:path';
import type { RunFlags } from '../options/run-flags.js';
import { loadScript, ScriptLoadError, type ScriptBundle } from '../host/hosted-vu.js';
import { moduleProblem } from '../modules/api/names.js';
import { goParseBool } from '../options/go-bool.js';
import { parseSecretSources, SecretSourceError, type SecretSources } from '../options/secret-sources.js';
import { EXIT } from './exit-codes.js';
import type { RunLog } from './run-log.js';

export interface TestScript {
  scriptPath: string;
  bundle: ScriptBundle;
  secretSources: SecretSources;
}

/**
 * Whether k6 analyses the script's dependencies before it runs it (its automatic extension
 * resolution: K6_AUTO_EXTENSION_RESOLUTION, or its old name K6_BINARY_PROVISIONING, read as Go's
 * ParseBool; on by default). The analysis fails first on a script it cannot read, parse or fetch.
 */
export function analysesDependencies(env: NodeJS.ProcessEnv): boolean {
  let on = true;
  for (const name of ['K6_BINARY_PROVISIONING', 'K6_AUTO_EXTENSION_RESOLUTION']) {
    const value = env[name] === undefined ? undefined : goParseBool(env[name]);
    if (value !== undefined) on = value;
  }
  return on;
}

/** The script ready for its VUs, or the exit code after the line that says why not. */
export async function openScript(
  flags: RunFlags,
  log: RunLog,
  env: NodeJS.ProcessEnv = process.env,
  /** Called where k6 prints its logo: after the analysis and the secret sources, before loading. */
  beforeLoad: () => void = () => undefined,
): Promise<TestScript | number> {
  const scriptPath = resolve(flags.script);
  const loaded = await loadScript(flags.script).catch((error: unknown) => {
    if (error instanceof ScriptLoadError) return error;
    throw error;
  });
  // k6's dependency analysis runs first: what it cannot read, parse or fetch stops k6 there, with
  // its line about the analysis, then the error again.
  if (loaded instanceof ScriptLoadError && loaded.failure.analysis && analysesDependencies(env)) {
    log(
      'error',
      'Automatic extension resolution is enabled but it failed to analyze the dependencies. Please, make sure to report this issue by opening a bug report.',
      { error: loaded.failure.analysis },
    );
    log('error', loaded.failure.analysis);
    return EXIT.plainError;
  }
  // k6 reads its secret sources with its logger, before it looks at the script.
  let secretSources: SecretSources;
  try {
    secretSources = parseSecretSources(flags.secretSources, process.cwd());
  } catch (error) {
    if (!(error instanceof SecretSourceError)) throw error;
    log('error', error.message);
    return EXIT.plainError;
  }
  beforeLoad();
  if (loaded instanceof ScriptLoadError) {
    if (loaded.failure.plain) {
      log('error', loaded.message);
      return EXIT.plainError;
    }
    log('error', `GoError: ${loaded.message}\n`, { hint: 'script exception' });
    return EXIT.scriptException;
  }
  const bundle = loaded;
  // A k6 module the runner cannot serve stops the run before any VU, in one line (GoError, as k6's).
  for (const name of bundle.k6Imports ?? []) {
    const problem = moduleProblem(name);
    if (problem !== undefined) {
      log('error', `GoError: ${problem}\n`, { hint: 'script exception' });
      return EXIT.scriptException;
    }
  }
  return { scriptPath, bundle, secretSources };
}
