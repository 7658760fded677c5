// `k6/execution` (internal/js/modules/k6/execution): read-only views of the VU, scenario, instance
// and test; each throws where k6 v1.3 has no state for it (see the helpers below).
import { AbortSignal, type VuRuntime } from '../api/runtime.js';
import { k6OptionsJson, testOptionsView } from './test-options.js';

export interface InstanceCounters {
  /** When the test started (setup began), in ms since the Unix epoch. */
  readonly testStartedAt: number;
  readonly iterationsCompleted: number;
  readonly iterationsInterrupted: number;
  readonly vusActive: number;
  readonly vusInitialized: number;
}

export function createExecutionModule(rt: VuRuntime, counters: InstanceCounters): Record<string, unknown> {
  // k6 v1.3's errors (internal/js/modules/k6/execution/execution.go): `vu` has no VU state in the
  // init context; `scenario` has none outside a scenario's iterations (setup, teardown and
  // handleSummary included), and says "VU context" for both.
  function needVuState(): void {
    if (rt.phase === 'init') throw new Error('getting VU information in the init context is not supported');
  }
  function scenarioState(): NonNullable<VuRuntime['iteration']> {
    const it = rt.phase === 'iteration' ? rt.iteration : undefined;
    if (!it) throw new Error('getting scenario information outside of the VU context is not supported');
    return it;
  }
  const tagsProxy = new Proxy(rt.vuTags, {
    get: (t, k) => (typeof k === 'string' ? rt.currentTags()[k] : undefined),
    set: (t, k, v) => {
      if (typeof k !== 'string') return false;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new Error(`invalid value for the tag ${k}: only string, number and boolean are accepted`);
      }
      t[k] = String(v);
      rt.vuTagsChanged();
      return true;
    },
    deleteProperty: (t, k) => {
      if (typeof k !== 'string') return false;
      const deleted = delete t[k];
      rt.vuTagsChanged();
      return deleted;
    },
    ownKeys: () => Object.keys(rt.currentTags()),
    getOwnPropertyDescriptor: (t, k) =>
      typeof k === 'string' && k in rt.currentTags()
        ? { enumerable: true, configurable: true, writable: true, value: rt.currentTags()[k] }
        : undefined,
  });
  // exec.vu.metrics.metadata: one map with the `vu` and `iter` metadata k6 sets (when enabled), as
  // k6's dynamic object shows it (execution.go metadataDynamicObject).
  const metadata = rt.metadata;
  const metadataProxy = new Proxy({} as Record<string, string>, {
    get: (_t, k) => (typeof k === 'string' ? metadata.current[k] : undefined),
    set: (_t, k, v) => {
      if (typeof k !== 'string') return false;
      if (typeof v !== 'string' && typeof v !== 'number' && typeof v !== 'boolean') {
        throw new TypeError(
          `invalid value for metric metadata '${k}': only String, Boolean and Number types are accepted as a metric metadata value`,
        );
      }
      metadata.set(k, String(v));
      return true;
    },
    deleteProperty: (_t, k) => {
      if (typeof k === 'string') metadata.delete(k);
      return true;
    },
    has: (_t, k) => typeof k === 'string' && k in metadata.current,
    ownKeys: () => Object.keys(metadata.current),
    getOwnPropertyDescriptor: (_t, k) =>
      typeof k === 'string' && k in metadata.current
        ? { enumerable: true, configurable: true, writable: true, value: metadata.current[k] }
        : undefined,
  });
  const metrics = {
    get tags() {
      return tagsProxy;
    },
    get metadata() {
      return metadataProxy;
    },
  };
  // Outside an iteration (setup, teardown, handleSummary) VU 0's iteration numbers are 0, as k6's.
  const vu = {
    get idInInstance() {
      needVuState();
      return rt.vuId;
    },
    get idInTest() {
      needVuState();
      return rt.vuId;
    },
    get iterationInInstance() {
      needVuState();
      return rt.iteration?.iterationInInstance ?? 0;
    },
    get iterationInScenario() {
      needVuState();
      return rt.iteration?.iterationInScenario ?? 0;
    },
    get tags() {
      needVuState();
      return tagsProxy;
    },
    get metrics() {
      needVuState();
      return metrics;
    },
  };
  const scenario = {
    get name() {
      return scenarioState().scenario.name;
    },
    get executor() {
      return scenarioState().scenario.executor;
    },
    get startTime() {
      return scenarioState().scenario.startTime;
    },
    get progress() {
      return scenarioState().scenario.progress;
    },
    get iterationInInstance() {
      return scenarioState().iterationInInstance;
    },
    get iterationInTest() {
      return scenarioState().scenario.iterationInTest;
    },
  };
  // k6 v1.3 has the run's execution state in setup and the iterations only: in init, teardown and
  // handleSummary, exec.instance throws its init-context error.
  function instanceState(): InstanceCounters {
    if (rt.phase !== 'setup' && rt.phase !== 'iteration')
      throw new Error('getting instance information in the init context is not supported');
    return counters;
  }
  const instance = {
    get currentTestRunDuration() {
      return performance.timeOrigin + performance.now() - instanceState().testStartedAt;
    },
    get iterationsCompleted() {
      return instanceState().iterationsCompleted;
    },
    get iterationsInterrupted() {
      return instanceState().iterationsInterrupted;
    },
    get vusActive() {
      return instanceState().vusActive;
    },
    get vusInitialized() {
      return instanceState().vusInitialized;
    },
  };
  // The JSON of the last test options shown: k6 marshals them, the script gets a copy at each read.
  let optionsShownFor: Record<string, unknown> | undefined;
  let optionsJson = '';
  const test = {
    abort(msg?: unknown): never {
      if (rt.phase === 'init') throw new AbortSignal(msg === undefined ? 'test aborted' : String(msg));
      rt.abortTest(msg === undefined ? '' : String(msg));
    },
    fail(msg?: unknown): void {
      rt.markFailed(msg === undefined ? '' : String(msg));
    },
    get options() {
      if (rt.phase === 'init' || !rt.testOptions) {
        throw new Error('getting test options in the init context is not supported');
      }
      if (optionsShownFor !== rt.testOptions) {
        optionsShownFor = rt.testOptions;
        optionsJson = k6OptionsJson(rt.testOptions);
      }
      return testOptionsView(optionsJson);
    },
  };
  const mod = { vu, scenario, instance, test };
  return mod;
}
