// Turns a k6 script (JS or TS, ESM, local imports with extensions) into one CommonJS bundle that a
// VU worker evaluates with a `require` shim: k6 and k6/* stay external and are served by
// runner/modules. Bundling happens once in the main thread; every VU evaluates the same code.
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { ScriptLoadError } from './errors.js';
import { K6_MODULE, remoteModules, REMOTE_PLUGIN } from './remote-modules.js';

export interface ScriptBundle {
  code: string;
  sourceMap?: string;
  scriptDir: string;
  /** k6 modules the script imports (lets the worker preload costly ones such as k6/browser). */
  k6Imports?: string[];
}

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
  try {
    const result = await build({
      entryPoints: [abs],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      sourcemap: 'external',
      outfile: path.join(path.dirname(abs), '__loadlab_bundle.js'),
      logLevel: 'silent',
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
        remoteModules(),
      ],
    });
    const js = result.outputFiles.find((f) => f.path.endsWith('.js'));
    const map = result.outputFiles.find((f) => f.path.endsWith('.map'));
    if (!js) throw new ScriptLoadError(`bundling ${scriptPath} produced no code`);
    return {
      code: js.text,
      sourceMap: map?.text,
      scriptDir: path.dirname(abs),
      k6Imports: [...k6Imports],
    };
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
      throw new ScriptLoadError(`SyntaxError: ${first.text}${loc}`);
    }
    throw new ScriptLoadError(`cannot load ${scriptPath}: ${(err as Error).message}`);
  }
}
