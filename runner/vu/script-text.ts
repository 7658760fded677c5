// The text a VU evaluates (the bundle wrapped in a function) and what errors need to point into
// the script's own files: the bundle's name, its lines and its source map, parsed on first use.
import { SourceMap } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ScriptSource } from '../script/errors.js';
import { REMOTE_NAMESPACE } from '../script/remote-modules.js';
import type { ScriptBundle } from '../script/load-script.js';

/** How esbuild names a fetched module in the source map: namespace, colon, URL. */
const REMOTE_SOURCE = `${REMOTE_NAMESPACE}:`;

export interface ScriptText {
  /** The wrapper function's source, evaluated once in init. */
  readonly evaluated: string;
  /** The file name stack frames give the evaluated bundle. */
  readonly bundleName: string;
  /** file:// URLs of the files esbuild read (the script and its local modules). */
  readonly inputFiles: ReadonlySet<string>;
  /** What script/errors.ts maps a stack with. */
  readonly source: ScriptSource;
}

export function scriptText(bundle: ScriptBundle): ScriptText {
  const bundleName = path.join(bundle.scriptDir, '__loadlab_bundle.js');
  const tla = bundle.topLevelAwait;
  // Wrapped on the bundle's first line so stack line numbers stay the bundle's own. The timer
  // parameters stand in for Node's globals in the script's code only (the runner's own code, such
  // as playwright in k6/browser, keeps Node's timers). Strict, as the ES module k6 runs is: the
  // CommonJS bundle lost that, and a write to a frozen object passed silently instead of throwing.
  // A script with top-level await is an async function's body, awaited in init as k6's init waits.
  const evaluated = `(${tla ? 'async ' : ''}function (exports, require, module, setTimeout, clearTimeout, setInterval, clearInterval) {"use strict";${tla?.prelude ?? ''}${bundle.code}\n})`;
  const inputFiles = new Set((bundle.inputs?.files ?? []).map((f) => pathToFileURL(f).href));
  /** Parsed on the first error that needs it: every VU parsing it at start cost its init for nothing. */
  let sourceMap: SourceMap | undefined;
  // Split once per VU, on the first error with a caller frame, not on every error a script throws.
  let evaluatedLines: readonly string[] | undefined;
  const source: ScriptSource = {
    bundleName,
    evaluatedLines: () => (evaluatedLines ??= evaluated.split('\n')),
    get map() {
      if (sourceMap === undefined && bundle.sourceMap)
        sourceMap = new SourceMap(fixSources(JSON.parse(bundle.sourceMap), bundle.scriptDir));
      return sourceMap;
    },
    mappedByK6: (file) =>
      file.startsWith('file://') &&
      (/\.[cm]?tsx?$/.test(file) || (inputFiles.size > 0 && !inputFiles.has(file))),
    literalDefaultNames: new Set(bundle.inputs?.defaultNames ?? []),
  };
  return { evaluated, bundleName, inputFiles, source };
}

/** esbuild writes sources relative to the bundle; k6 prints absolute file:// paths (and remote modules' URLs). */
function fixSources(map: { sources: string[] }, scriptDir: string): never {
  map.sources = map.sources.map((s) =>
    s.startsWith(REMOTE_SOURCE) ? s.slice(REMOTE_SOURCE.length) : `file://${path.resolve(scriptDir, s)}`,
  );
  return map as never;
}
