// Turns a k6 script (JS or TS, ESM, local imports with extensions) into one CommonJS bundle that a
// VU worker evaluates with a `require` shim: k6 and k6/* stay external and are served by
// runner/modules. Bundling happens once in the main thread; every VU evaluates the same code.
// A script with top-level await (in it or in a module it imports) cannot be CommonJS: it is bundled
// as an ES module instead and turned into the body of an async function (esm-to-async.ts), which
// the worker awaits in init.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { BuildOptions } from 'esbuild';
import { ScriptLoadError } from './errors.js';
import { esmToAsyncBody } from './esm-to-async.js';
import { K6_MODULE, remoteModules, REMOTE_PLUGIN } from './remote-modules.js';
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

/** esbuild's refusal of top-level await in a CommonJS bundle. */
const TLA_IN_CJS = /^Top-level await is currently not supported with the "cjs" output format/;

export async function loadScript(scriptPath: string): Promise<ScriptBundle> {
  const abs = path.resolve(scriptPath);
  try {
    const st = await stat(abs);
    if (!st.isFile()) throw new Error('not a file');
    await readFile(abs, { encoding: 'utf8', flag: 'r' });
  } catch {
    throw new ScriptLoadError(`The moduleSpecifier "${scriptPath}" couldn't be found on local disk.`);
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
    const e = err as {
      errors?: {
        text: string;
        pluginName?: string;
        location?: { file: string; line: number; column: number };
      }[];
    };
    const first = e.errors?.[0];
    // A module that could not be fetched is not a syntax error: k6's loader message as is.
    if (first?.pluginName === REMOTE_PLUGIN) throw new ScriptLoadError(first.text);
    if (first) {
      const loc = first.location
        ? ` (${first.location.file}:${first.location.line}:${first.location.column})`
        : '';
      const where = first.location
        ? `${first.location.file}:${first.location.line}:${first.location.column}`
        : scriptPath;
      throw new ScriptLoadError(`SyntaxError: ${first.text}${loc}`, { where, text: first.text });
    }
    throw new ScriptLoadError(`cannot load ${scriptPath}: ${(err as Error).message}`);
  }
}
