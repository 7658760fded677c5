// Errors the VU API raises, and the translation of a JS stack into k6's one-line location format
// ("Error: boom\n\tat default (file:///path/script.js:2:36(3))"), mapped back to the user's source.
import { SourceMap } from 'node:module';

/** The script file could not be read or bundled (missing file, syntax error). One-line message. */
export class ScriptLoadError extends Error {
  override name = 'ScriptLoadError';
}

/** An exception thrown by script code; `message` is already in k6's shape (with location). */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

const FRAME = /^\s*at (?:(.*?) \()?(.*?):(\d+):(\d+)\)?$/;

/**
 * Formats a thrown value like k6 logs it. Frames inside the bundle are mapped through its source
 * map; frames of the runner itself are dropped.
 */
export function formatScriptException(err: unknown, bundleName: string, map: SourceMap | undefined): string {
  if (!(err instanceof Error)) return String(err);
  const head = `${err.name}: ${err.message}`;
  const frames: string[] = [];
  for (const line of (err.stack ?? '').split('\n').slice(1)) {
    const m = FRAME.exec(line);
    if (!m || m[2] !== bundleName) continue;
    const fn = m[1];
    let file = m[2] ?? '';
    let ln = Number(m[3]);
    let col = Number(m[4]);
    if (map) {
      const entry = map.findEntry(ln - 1, col - 1) as {
        originalSource?: string;
        originalLine?: number;
        originalColumn?: number;
      };
      if (entry.originalSource !== undefined && entry.originalLine !== undefined) {
        file = entry.originalSource;
        ln = entry.originalLine + 1;
        col = (entry.originalColumn ?? 0) + 1;
      }
    }
    const loc = `${/^[a-z]+:\/\//.test(file) ? file : `file://${file}`}:${ln}:${col}`;
    // esbuild names a bundled `export default function` <file>_default; k6 calls it `default`.
    const name =
      fn && !fn.startsWith('Object.') && fn !== 'eval' ? fn.replace(/^[\w$]+_default$/, 'default') : '';
    frames.push(name ? `\tat ${name} (${loc})` : `\tat ${loc}`);
  }
  return frames.length > 0 ? `${head}\n${frames.join('\n')}\n` : head;
}
