// The globals a k6 script sees besides its imports: __ENV, __VU, __ITER, open(), console (to the
// run's log, as k6's console logger writes it), `global` (k6 extended mode) and WebCrypto.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { format } from 'node:util';
import type { IterationView, VuRuntime } from '../modules/api/runtime.js';
import { installWebCryptoCompatLazily } from '../modules/webcrypto/webcrypto.js';
import { callingFile } from '../script/errors.js';
import type { ScriptText } from './script-text.js';
import type { VuState } from './vu-state.js';

export function installScriptGlobals(vu: VuState, rt: VuRuntime, text: ScriptText): void {
  const init = vu.init;
  Object.defineProperty(globalThis, '__ENV', { value: init.env, writable: true, configurable: true });
  Object.defineProperty(globalThis, '__VU', { get: () => init.vuId, configurable: true });
  Object.defineProperty(globalThis, '__ITER', { get: () => vu.iterInInstance, configurable: true });
  Object.defineProperty(globalThis, 'global', { value: globalThis, writable: true, configurable: true });
  installWebCryptoCompatLazily(globalThis, rt.pending);
  (globalThis as Record<string, unknown>).open = (p: unknown, mode?: unknown) =>
    // As k6: the file scheme's prefix dropped, a relative path the calling module's.
    rt.readFile(fromCallingModule(String(p).replace(/^file:\/\//, ''), text), mode === 'b');
  /** console.* lines, as k6's console logger tags them. */
  const CONSOLE = { source: 'console' };
  const scriptConsole = {
    log: (...a: unknown[]) => rt.log('info', formatLog(a), CONSOLE),
    info: (...a: unknown[]) => rt.log('info', formatLog(a), CONSOLE),
    warn: (...a: unknown[]) => rt.log('warn', formatLog(a), CONSOLE),
    error: (...a: unknown[]) => rt.log('error', formatLog(a), CONSOLE),
    debug: (...a: unknown[]) => rt.log('debug', formatLog(a), CONSOLE),
  };
  Object.defineProperty(globalThis, 'console', { value: scriptConsole, writable: true, configurable: true });
}

/**
 * Scenario env entries are visible through __ENV for this scenario's iterations. k6 builds
 * __ENV when a VU is activated for a scenario, not per iteration (a script's writes to it last
 * for the scenario), and copying the whole process env every iteration showed in profiles.
 */
export function envForScenario(vu: VuState, scenario: IterationView['scenario']): void {
  if (vu.envScenario === scenario.name) return;
  vu.envScenario = scenario.name;
  (globalThis as Record<string, unknown>).__ENV = { ...vu.init.env, ...(scenario.env ?? {}) };
}

/**
 * A relative open() path against the file of the module that calls open(), as k6 resolves it. Only
 * a file esbuild read counts: a frame mapped further, into the sources of a prebuilt bundle's own
 * map, ran in that bundle, which k6 resolves against (the script's folder when it is the script).
 */
function fromCallingModule(p: string, text: ScriptText): string {
  if (path.isAbsolute(p)) return p;
  const file = callingFile(new Error().stack ?? '', text.source);
  return file !== undefined && text.inputFiles.has(file)
    ? path.resolve(path.dirname(fileURLToPath(file)), p)
    : p;
}

function formatLog(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      if (a && typeof a === 'object') {
        try {
          return JSON.stringify(a);
        } catch {
          return format('%o', a);
        }
      }
      return String(a);
    })
    .join(' ');
}
