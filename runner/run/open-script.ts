// The first phase of a run: the secret sources, the script found and bundled, and the k6 modules
// it imports checked, each failure in k6's one line and exit code before any VU starts.
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import type { RunFlags } from '../options/run-flags.js';
import { loadScript, ScriptLoadError, type ScriptBundle } from '../host/hosted-vu.js';
import { moduleProblem } from '../modules/api/names.js';
import { parseSecretSources, SecretSourceError, type SecretSources } from '../options/secret-sources.js';
import { EXIT } from './exit-codes.js';
import type { RunLog } from './run-log.js';

export interface TestScript {
  scriptPath: string;
  bundle: ScriptBundle;
  secretSources: SecretSources;
}

/** The script ready for its VUs, or the exit code after the line that says why not. */
export async function openScript(flags: RunFlags, log: RunLog): Promise<TestScript | number> {
  // k6 reads its secret sources with its logger, before it looks at the script.
  let secretSources: SecretSources;
  try {
    secretSources = parseSecretSources(flags.secretSources, process.cwd());
  } catch (error) {
    if (!(error instanceof SecretSourceError)) throw error;
    log('error', error.message);
    return EXIT.plainError;
  }
  const scriptPath = resolve(flags.script);
  if (!existsSync(scriptPath)) {
    log(
      'error',
      `The moduleSpecifier "${flags.script}" couldn't be found on local disk. Make sure that you've specified the right path to the file.`,
    );
    return EXIT.scriptException;
  }

  let bundle: ScriptBundle;
  try {
    bundle = await loadScript(scriptPath);
  } catch (error) {
    if (error instanceof ScriptLoadError && error.syntax) {
      // k6 v1.3 meets a syntax error first in its extension resolution, which says so, then fails.
      const found = `${error.syntax.where} ${error.syntax.text}`;
      log(
        'error',
        'Automatic extension resolution is enabled but it failed to analyze the dependencies. Please, make sure to report this issue by opening a bug report.',
        { error: found },
      );
      log('error', found);
      return EXIT.plainError;
    }
    log('error', error instanceof ScriptLoadError ? error.message : String(error), {
      hint: 'script exception',
    });
    return EXIT.scriptException;
  }
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
