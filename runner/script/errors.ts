// Errors the VU API raises, and the translation of a JS stack into k6's one-line location format
// ("Error: boom\n\tat default (file:///path/script.js:2:36(3))"), mapped back to the user's source.
import { SourceMap } from 'node:module';

/** The script file could not be read or bundled (missing file, syntax error). One-line message. */
export class ScriptLoadError extends Error {
  override name = 'ScriptLoadError';

  constructor(
    /** k6's loader's words for it (run/open-script.ts reports them as a GoError, exit 107). */
    message: string,
    readonly failure: {
      /**
       * What k6 v1.3's dependency analysis (on unless K6_AUTO_EXTENSION_RESOLUTION=false) says of
       * it, where that analysis, which runs first, fails too: the run then exits 255 with it.
       */
      analysis?: string;
      /** k6 reports it as a plain error line and exits 255 (the script itself is not there). */
      plain?: true;
    } = {},
  ) {
    super(message);
  }
}

/** An exception thrown by script code; `message` is already in k6's shape (with location). */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** The init code left a promise rejected and unhandled: k6 cannot load the script (its message is the line's tail). */
export class UncaughtInInitError extends ScriptError {
  override name = 'UncaughtInInitError';
}

/** Setup or teardown left a promise rejected and unhandled: k6 ends the test with its line, exit 255. */
export class UncaughtInPromiseError extends ScriptError {
  override name = 'UncaughtInPromiseError';
}

// `at async f (…)`: V8 marks a frame an await resumed; k6 prints it as any other frame.
const FRAME = /^\s*at (?:async )?(?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/;

/** What the bundle's frames are mapped with (built once per VU). */
export interface ScriptSource {
  /** The path V8 names the evaluated bundle by. */
  bundleName: string;
  /** The bundle's lines as evaluated, wrapper included: call frames are moved to their `(` in them. */
  evaluatedLines: () => readonly string[];
  map: SourceMap | undefined;
  /**
   * Original sources k6 also reaches through a source map (TypeScript, or a file with an inline or
   * `//# sourceMappingURL=` map), as file:// URLs: k6 prints their columns 0-based.
   */
  mappedByK6: (source: string) => boolean;
  /** `<x>_default` names written in the script's files, which are not esbuild's and stay as they are. */
  literalDefaultNames: ReadonlySet<string>;
}

/**
 * Formats a thrown value like k6 logs it. Frames inside the bundle are mapped through its source
 * map; frames of the runner itself are dropped. A non-Error value has no stack of its own:
 * `valueStack` is where it was thrown (thrown-values.ts), when known.
 */
export function formatScriptException(err: unknown, src: ScriptSource, valueStack?: string): string {
  if (!(err instanceof Error)) {
    // k6 ends a thrown non-Error value's message with a newline, after the frames when it has them.
    const frames = valueStack === undefined ? [] : bundleFrames(valueStack, src);
    return `${String(err)}\n${frames.map((f) => `${f}\n`).join('')}`;
  }
  const head = `${err.name}: ${err.message}`;
  const frames = bundleFrames(err.stack ?? '', src);
  // A k6 function's error names its Go function as goja's first, native, frame.
  const goFrame = (err as { goFrame?: unknown }).goFrame;
  if (typeof goFrame === 'string' && frames.length > 0) frames.unshift(`\tat ${goFrame} (native)`);
  return frames.length > 0 ? `${head}\n${frames.join('\n')}\n` : head;
}

interface MapEntry {
  generatedLine?: number;
  generatedColumn?: number;
  originalSource?: string;
  originalLine?: number;
  originalColumn?: number;
}

/** The original column of the mapping at or before (line, column) of the bundle, on that line. */
function nextMapping(map: SourceMap, line: number, column: number): number | undefined {
  const entry = map.findEntry(line, column) as MapEntry;
  return entry.generatedLine === line ? entry.originalColumn : undefined;
}

/** A builtin's frame as V8 writes it: `at JSON.parse (<anonymous>)`, `at new Promise (<anonymous>)`. */
const NATIVE = /^\s*at (?:new )?(?:[\w$]+\.)*([\w$]+) \(<anonymous>\)$/;

/**
 * The original file (file:// URL) of the first script frame of `stack`: the module that called
 * a function of the runner, such as open(), which k6 resolves against the calling module's file.
 */
export function callingFile(stack: string, src: ScriptSource): string | undefined {
  for (const line of stack.split('\n').slice(1)) {
    const m = FRAME.exec(line);
    if (!m || m[2] !== src.bundleName) continue;
    const entry = src.map?.findEntry(Number(m[3]) - 1, Number(m[4]) - 1) as MapEntry | undefined;
    return entry?.originalSource;
  }
  return undefined;
}

/** A call as V8 places it (callee, or `await`) up to its `(`, where goja places it. */
const CALL_HEAD = /^(?:await\s+)?[\w$.\s]*?\(/;

/** k6's `\tat fn (file:///…:line:col)` lines for the stack's frames inside the bundle. */
function bundleFrames(stack: string, src: ScriptSource): string[] {
  const frames: string[] = [];
  const stackLines = stack.split('\n').slice(1);
  for (let i = 0; i < stackLines.length; i++) {
    const m = FRAME.exec(stackLines[i]!);
    if (!m || m[2] !== src.bundleName) {
      // A builtin the script called (`at JSON.parse (<anonymous>)`): goja's `at parse (native)`.
      const builtin = NATIVE.exec(stackLines[i]!);
      const next = FRAME.exec(stackLines[i + 1] ?? '');
      if (builtin && next?.[2] === src.bundleName) frames.push(`\tat ${builtin[1]} (native)`);
      continue;
    }
    const fn = m[1];
    let file = m[2] ?? '';
    const genLine = Number(m[3]) - 1;
    let ln = genLine + 1;
    let col = Number(m[4]);
    // Below the first frame of the stack (the script's, the runner's or a builtin's), a call site.
    const caller = i > 0;
    if (caller) {
      // A caller's frame: goja's position is the call's `(`, V8's the callee's start.
      const head = CALL_HEAD.exec(src.evaluatedLines()[ln - 1]?.slice(col - 1) ?? '');
      if (head) col += head[0].length - 1;
    }
    if (src.map) {
      const entry = src.map.findEntry(genLine, col - 1) as MapEntry;
      if (entry.originalSource !== undefined && entry.originalLine !== undefined) {
        file = entry.originalSource;
        ln = entry.originalLine + 1;
        col =
          caller || src.mappedByK6(file)
            ? // goja looks its map up at its 1-based column taken as 0-based and prints the original
              // column found there: for a call, the argument (or `)`) after the `(`, which esbuild maps
              // exactly even where it rewrote the callee (`(0, import_k6.fail)(…)`).
              (nextMapping(src.map, genLine, col) ?? entry.originalColumn ?? 0)
            : (entry.originalColumn ?? 0) + 1;
      }
    }
    const loc = `${/^[a-z]+:\/\//.test(file) ? file : `file://${file}`}:${ln}:${col}`;
    // esbuild names a bundled `export default function` <file>_default; k6 calls it `default`.
    const name =
      fn && !fn.startsWith('Object.') && fn !== 'eval'
        ? fn.replace(/^[\w$]+_default$/, (n) => (src.literalDefaultNames.has(n) ? n : 'default'))
        : '';
    frames.push(name ? `\tat ${name} (${loc})` : `\tat ${loc}`);
  }
  return frames;
}
