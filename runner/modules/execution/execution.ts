// `k6/execution` (internal/js/modules/k6/execution): read-only views of the VU, scenario, instance
// and test; vu/scenario/instance/test.options throw in the init context as in k6.
import { AbortSignal, type VuRuntime } from '../api/runtime.js';

export interface InstanceCounters {
  /** When the test started (setup began), in ms since the Unix epoch. */
  readonly testStartedAt: number;
  readonly iterationsCompleted: number;
  readonly iterationsInterrupted: number;
  readonly vusActive: number;
  readonly vusInitialized: number;
}

export function createExecutionModule(rt: VuRuntime, counters: InstanceCounters): Record<string, unknown> {
  function needIteration(what: string): NonNullable<VuRuntime['iteration']> {
    if (rt.phase === 'init')
      throw new Error(`getting ${what} information in the init context is not supported`);
    const it = rt.iteration;
    if (!it) throw new Error(`getting ${what} information outside of an iteration is not supported`);
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
  const vu = {
    get idInInstance() {
      if (rt.phase === 'init') throw new Error('getting VU information in the init context is not supported');
      return rt.vuId;
    },
    get idInTest() {
      if (rt.phase === 'init') throw new Error('getting VU information in the init context is not supported');
      return rt.vuId;
    },
    get iterationInInstance() {
      return needIteration('VU').iterationInInstance;
    },
    get iterationInScenario() {
      return needIteration('VU').iterationInScenario;
    },
    get tags() {
      return tagsProxy;
    },
    metrics: {
      get tags() {
        return tagsProxy;
      },
      metadata: {},
    },
  };
  const scenario = {
    get name() {
      return needIteration('scenario').scenario.name;
    },
    get executor() {
      return needIteration('scenario').scenario.executor;
    },
    get startTime() {
      return needIteration('scenario').scenario.startTime;
    },
    get progress() {
      return needIteration('scenario').scenario.progress;
    },
    get iterationInInstance() {
      return needIteration('scenario').iterationInInstance;
    },
    get iterationInTest() {
      return needIteration('scenario').scenario.iterationInTest;
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
      return rt.testOptions;
    },
  };
  const mod = { vu, scenario, instance, test };
  return mod;
}
