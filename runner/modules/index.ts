// Resolves k6 module names to their implementations for one VU. Modules are built on first
// require so a script pays only for what it imports; k6/browser is preloaded asynchronously
// (playwright-core is heavy) and only when the script imports it.
import { BROWSER_METRICS } from '../metrics/builtin.js';
import { dynamicImport } from '../bridge/dynamic-import.js';
import type { VuModuleEnv } from '../contracts.js';
import { createCryptoModule } from './crypto/crypto.js';
import { createDataModule } from './data/data.js';
import { createEncodingModule } from './encoding/encoding.js';
import { createExecutionModule, type InstanceCounters } from './execution/execution.js';
import { createHttpModule } from './http/http.js';
import { createK6Module } from './k6/k6.js';
import { createMetricsModule } from './metrics/metrics.js';
import { isImplementedModule, isWorkerHostModule, type ImplementedModule } from './api/names.js';
import type { WorkerHostModule } from '../bridge/worker-host-modules.js';
import { ITERATION_END, type VuRuntime } from './api/runtime.js';
import type { VuTimers } from './timers/timers.js';
import { workerHostBuilders } from './worker-host-modules.js';

type ModuleObject = Record<string, unknown>;

/**
 * A k6 module as the bundle's CommonJS interop reads it: `default` is the module itself. Both markers
 * are non-enumerable, so `Object.keys` of a default or namespace import lists k6's exports only, the
 * namespace's sorted as an ES module namespace's are (the default keeps the module's own order).
 */
function asEsModule(mod: ModuleObject): ModuleObject {
  const namespace = Object.fromEntries(Object.entries(mod).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  return Object.defineProperties(namespace, { default: { value: mod }, __esModule: { value: true } });
}

export class ModuleRegistry {
  private readonly cache = new Map<string, ModuleObject>();
  private browserFactory: ((env: VuModuleEnv) => ModuleObject) | undefined;

  constructor(
    private readonly rt: VuRuntime,
    private readonly counters: InstanceCounters,
    private readonly browserModuleUrl: string,
    private readonly tsxApiUrl: string | undefined,
    private readonly moduleEnv: VuModuleEnv,
    private readonly timers: VuTimers,
  ) {}

  /** Loads the modules that cannot be built synchronously, for the imports the bundle declares. */
  async preload(names: readonly string[]): Promise<void> {
    if (names.includes('k6/browser')) {
      try {
        // The browser module is TypeScript when the runner runs from sources: register tsx first.
        if (this.tsxApiUrl) {
          const { register } = (await dynamicImport(this.tsxApiUrl)) as { register: () => unknown };
          register();
        }
        const mod = (await dynamicImport(this.browserModuleUrl)) as {
          createBrowserModule?: (env: VuModuleEnv) => ModuleObject;
        };
        this.browserFactory = mod.createBrowserModule;
      } catch (err) {
        throw new Error(`k6/browser is not available in this runner: ${(err as Error).message}`, {
          cause: err,
        });
      }
    }
  }

  /** Runs the iteration-end hook of every module built so far that has one (k6/browser's). */
  iterationEnd(): Promise<void> | undefined {
    // The hook is a symbol of the module itself: the namespace holds its string-keyed exports only.
    const browser = this.cache.get('k6/browser')?.default as Record<symbol, unknown> | undefined;
    const hook = browser?.[ITERATION_END];
    return typeof hook === 'function' ? (hook as () => Promise<void>)().catch(() => {}) : undefined;
  }

  require(name: string): ModuleObject {
    const hit = this.cache.get(name);
    if (hit) return hit;
    const mod = asEsModule(this.build(name));
    this.cache.set(name, mod);
    return mod;
  }

  /**
   * One builder per name in IMPLEMENTED_MODULES, here or in worker-host-modules.ts: the Records' key
   * types make tsc refuse a name listed there without a builder, or a builder for a name the run's
   * module check would refuse.
   */
  private readonly builders: Record<Exclude<ImplementedModule, WorkerHostModule>, () => ModuleObject> = {
    k6: () => createK6Module(this.rt),
    'k6/http': () => createHttpModule(this.rt),
    'k6/metrics': () => createMetricsModule(this.rt),
    'k6/execution': () => createExecutionModule(this.rt, this.counters),
    'k6/encoding': () => createEncodingModule(),
    'k6/crypto': () => createCryptoModule(),
    'k6/data': () => createDataModule(this.rt),
    'k6/timers': () => ({ ...this.timers }),
    'k6/browser': () => this.buildBrowser(),
  };

  private build(name: string): ModuleObject {
    if (!isImplementedModule(name)) throw new Error(`unknown module: ${name}`);
    if (isWorkerHostModule(name)) return workerHostBuilders[name](this.rt);
    return this.builders[name]();
  }

  private buildBrowser(): ModuleObject {
    if (!this.browserFactory) throw new Error('unknown module: k6/browser');
    for (const [metric, { type, contains }] of Object.entries(BROWSER_METRICS)) {
      this.rt.declareMetric(metric, type, contains);
    }
    return this.browserFactory(this.moduleEnv);
  }
}
