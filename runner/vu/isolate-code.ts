// The VU isolate's code (isolate/entry.ts and the VU's code under it), bundled once per process with
// esbuild, as worker-code.ts bundles the worker's. Node's modules are swapped for the isolate's own
// (isolate/node-*.ts), Node's globals the VU's code uses are injected from isolate/globals.ts (so the
// script's global scope gets none of them), and the modules that read files or start workers, or
// build the k6 modules only a worker-hosted VU runs, are swapped for their isolate twins.
import type { Plugin } from 'esbuild';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { esbuild } from '../script/esbuild.js';

export const ISOLATE_BUNDLE_FILE = 'isolate.bundle.js';
/** The bundle's name in stack traces. */
export const ISOLATE_FILENAME = 'loadlab-vu-isolate.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const ext = import.meta.url.endsWith('.ts') ? 'ts' : 'js';

/** Where the isolate's stand-ins are, in the sources (`vuDir`, its files ending in `.ts` or `.js`). */
function layout(vuDir: string, sourceExt: string) {
  const shim = (name: string) => path.join(vuDir, 'isolate', `${name}.${sourceExt}`);
  /** Node's modules the VU's code imports, by what stands in for them in an isolate. */
  const nodeModules: Record<string, string> = {
    'node:path': shim('node-path'),
    'node:url': shim('node-url'),
    'node:util': shim('node-util'),
    'node:vm': shim('node-vm'),
    'node:module': shim('node-module'),
    'node:fs': shim('node-unavailable'),
    'node:worker_threads': shim('node-unavailable'),
  };
  /** The VU's own modules with an isolate twin (a relative import resolved to the first gets the second). */
  const twins: Record<string, string> = {
    [path.join(vuDir, '..', 'bridge', `read-file.${sourceExt}`)]: shim('read-file'),
    [path.join(vuDir, '..', 'modules', `worker-host-modules.${sourceExt}`)]: shim('worker-host-modules'),
  };
  const plugin: Plugin = {
    name: 'loadlab-isolate-twins',
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        const resolved = path.resolve(args.resolveDir, args.path).replace(/\.js$/, `.${sourceExt}`);
        const twin = twins[resolved];
        return twin ? { path: twin } : undefined;
      });
    },
  };
  return { shim, nodeModules, plugin };
}

let cached: Promise<string> | undefined;

/** The bundle, built once per process (esbuild's plugins need its asynchronous API). */
export function isolateCode(): Promise<string> {
  cached ??= readBuilt() ?? buildIsolateCode();
  return cached;
}

/** The compiled runner's bundle, built with it beside this module. */
function readBuilt(): Promise<string> | undefined {
  if (ext !== 'js') return undefined;
  try {
    return Promise.resolve(readFileSync(path.join(here, ISOLATE_BUNDLE_FILE), 'utf8'));
  } catch {
    return undefined; // compiled by other means: built as from the sources
  }
}

/** The bundle from the VU's sources in `vuDir` (the compiled runner builds it from the TypeScript, as the worker's). */
export async function buildIsolateCode(vuDir = here, sourceExt = ext): Promise<string> {
  const { shim, nodeModules, plugin } = layout(vuDir, sourceExt);
  const out = await esbuild.build({
    entryPoints: [shim('entry')],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2022',
    // Every isolate holds the source (as two-byte text): whitespace and syntax minified, names kept.
    minifyWhitespace: true,
    minifySyntax: true,
    logLevel: 'silent',
    alias: nodeModules,
    inject: [shim('globals')],
    plugins: [plugin],
    // k6/browser, playwright and cheerio are Node packages: scripts that load them run on the worker host.
    external: ['*/browser/index.js', 'playwright-core', 'esbuild', 'undici'],
    define: { __LOADLAB_CHEERIO__: '"cheerio"' },
  });
  return out.outputFiles[0]!.text;
}
