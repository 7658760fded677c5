// Turns a k6 script (JS or TS, ESM, local imports with extensions) into one CommonJS bundle that a
// VU worker evaluates with a `require` shim: k6 and k6/* stay external and are served by
// runner/modules. Bundling happens once in the main thread; every VU evaluates the same code.
// A script with top-level await (in it or in a module it imports) cannot be CommonJS: it is bundled
// as an ES module instead and turned into the body of an async function (esm-to-async.ts), which
// the worker awaits in init.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BuildOptions } from 'esbuild';
import { ScriptLoadError } from './errors.js';
import { esmToAsyncBody } from './esm-to-async.js';
import { K6_MODULE, REMOTE_NAMESPACE, remoteModules, type ImportAnalysis } from './remote-modules.js';
import { esbuild } from './esbuild.js';

export interface ScriptBundle {
  code: string;
  sourceMap?: string;
  scriptDir: string;
  /** k6 modules the script imports (lets the worker preload costly ones such as k6/browser). */
  k6Imports?: string[];
  /**
   * Set when the script has top-level await: `code` is then the body of an async function and
   * `prelude` declares its k6 imports (esm-to-async.ts).
   */
  topLevelAwait?: { prelude: string };
  /** For errors.ts: the local files bundled (absolute), and the `<x>_default` names written in them. */
  inputs?: { files: string[]; defaultNames: string[] };
}

/**
 * The local files esbuild read (its metafile names them relative to the working directory; fetched
 * modules carry a namespace prefix), and the `<x>_default` names their text holds: esbuild gives an
 * anonymous default export such a name, which k6 prints as `default`, but a name the file already
 * had (a prebuilt bundle's) k6 prints as written.
 */
async function localInputs(metafileInputs: string[]): Promise<{ files: string[]; defaultNames: string[] }> {
  const files = metafileInputs.filter((f) => !/^[a-z-]+:/.test(f)).map((f) => path.resolve(f));
  const names = new Set<string>();
  for (const file of files) {
    const text = await readFile(file, 'utf8').catch(() => '');
    for (const m of text.matchAll(/\b[\w$]+_default\b/g)) names.add(m[0]);
  }
  return { files, defaultNames: [...names] };
}

/** k6's words for a module that is not on disk (its loader's, and its analysis's for the script itself). */
export function notOnDisk(specifier: string): string {
  return (
    `The moduleSpecifier "${specifier}" couldn't be found on local disk. Make sure that you've specified the right path to the file. ` +
    "If you're running k6 using the Docker image make sure you have mounted the local directory (-v /local/path/:/inside/docker/path) " +
    "containing your script and modules so that they're accessible by k6 from inside of the container, " +
    'see https://grafana.com/docs/k6/latest/using-k6/modules/#use-modules-with-docker.'
  );
}

interface EsbuildMessage {
  text: string;
  pluginName?: string;
  detail?: unknown;
  location?: { file: string; line: number; column: number } | null;
  notes?: { text: string; location?: { file: string; line: number; column: number } | null }[];
}

/** Where the import an esbuild error is about was written, as k6's analysis names it: `file:line:column`. */
function importSite(error: EsbuildMessage): string | undefined {
  // An error in a plugin's onLoad is placed at the plugin; a note names the import that loaded it.
  const triggered = error.notes?.find((note) => note.text.includes('was triggered by this import'));
  const at = triggered?.location ?? error.location;
  // A fetched module is named by its URL (esbuild prefixes the plugin's namespace).
  const file = at?.file.replace(`${REMOTE_NAMESPACE}:`, '');
  return at ? `${file}:${at.line}:${at.column}` : undefined;
}

/** The ScriptLoadError for bundling's first error, in k6's loader's words and its analysis's. */
function loadFailure(error: EsbuildMessage, scriptPath: string): ScriptLoadError {
  const where = importSite(error) ?? scriptPath;
  const analysis = (error.detail as Partial<ImportAnalysis> | undefined)?.analysis;
  if (analysis !== undefined) return new ScriptLoadError(error.text, { analysis: `${where} ${analysis}` });
  // A relative or absolute path esbuild found no file at: k6 reads it as a file in both steps.
  const unresolved = /^Could not resolve "(.+)"$/.exec(error.text)?.[1];
  if (unresolved !== undefined && error.location) {
    const file = path.join(path.dirname(path.resolve(error.location.file)), unresolved);
    return new ScriptLoadError(notOnDisk(unresolved), {
      analysis: `${where} opening file via launcher's bridge: open ${file}: no such file or directory`,
    });
  }
  // A refusal of k6's loader (remote-modules.ts) that the analysis lets through.
  if (error.pluginName) return new ScriptLoadError(error.text);
  // esbuild's parser: the analysis parses with esbuild too, in the same words; k6's loader parses
  // with goja, whose words differ (its place is `Line <line>:<column from 1>`).
  const at = error.location;
  const parsed = at ? `${pathToFileURL(path.resolve(at.file)).href}: Line ${at.line}:${at.column + 1} ` : '';
  return new ScriptLoadError(`${parsed}${error.text}`, { analysis: `${where} ${error.text}` });
}

/** esbuild's refusal of top-level await in a CommonJS bundle. */
const TLA_IN_CJS = /^Top-level await is currently not supported with the "cjs" output format/;

export async function loadScript(scriptPath: string): Promise<ScriptBundle> {
  const abs = path.resolve(scriptPath);
  try {
    const st = await stat(abs);
    if (!st.isFile()) throw new Error('not a file');
    await readFile(abs, { encoding: 'utf8', flag: 'r' });
  } catch {
    const message = notOnDisk(scriptPath);
    throw new ScriptLoadError(message, { analysis: `reading source for analysis ${message}`, plain: true });
  }
  const k6Imports = new Set<string>();
  // One plugin for both builds: a remote module is fetched once per run.
  const remote = remoteModules();
  const options: BuildOptions = {
    entryPoints: [abs],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: 'external',
    outfile: path.join(path.dirname(abs), '__loadlab_bundle.js'),
    logLevel: 'silent',
    metafile: true,
    // k6 resolves only explicit relative paths; no node_modules, no package.json "main" guessing.
    mainFields: [],
    plugins: [
      {
        name: 'k6-externals',
        setup(b) {
          b.onResolve({ filter: K6_MODULE }, (args) => {
            k6Imports.add(args.path);
            return { path: args.path, external: true };
          });
        },
      },
      remote,
    ],
  };
  try {
    let result;
    let topLevelAwait = false;
    try {
      result = await esbuild.build(options);
    } catch (err) {
      const errors = (err as { errors?: { text: string }[] }).errors ?? [];
      if (!errors.some((e) => TLA_IN_CJS.test(e.text))) throw err;
      topLevelAwait = true;
      // `import.meta` as the CommonJS bundle has it (an empty object), not a SyntaxError in the
      // function the worker runs (k6's `import.meta.resolve` is not there on either path).
      result = await esbuild.build({ ...options, format: 'esm', define: { 'import.meta': '{}' } });
    }
    const js = result.outputFiles?.find((f) => f.path.endsWith('.js'));
    const map = result.outputFiles?.find((f) => f.path.endsWith('.map'));
    if (!js) throw new ScriptLoadError(`bundling ${scriptPath} produced no code`);
    const bundle: ScriptBundle = {
      code: js.text,
      sourceMap: map?.text,
      scriptDir: path.dirname(abs),
      k6Imports: [...k6Imports],
      inputs: await localInputs(Object.keys(result.metafile?.inputs ?? {})),
    };
    if (topLevelAwait) {
      const { prelude, body } = esmToAsyncBody(js.text);
      bundle.code = body;
      bundle.topLevelAwait = { prelude };
    }
    return bundle;
  } catch (err) {
    if (err instanceof ScriptLoadError) throw err;
    const first = (err as { errors?: EsbuildMessage[] }).errors?.[0];
    if (first) throw loadFailure(first, scriptPath);
    throw new ScriptLoadError(`cannot load ${scriptPath}: ${(err as Error).message}`);
  }
}
