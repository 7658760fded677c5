// The one mutable state of a VU thread, shared by its parts (main-thread-call.ts, vu-runtime.ts,
// script-globals.ts, lifecycle.ts): what they read and write of each other lives here, in one
// object made once per thread, not in module-level variables scattered over the files.
import { INSTANCE_STATS, INSTANCE_STATS_BYTES, testStartIn } from '../bridge/protocol.js';
import { SampleBatcher } from '../bridge/sample-batch.js';
import type { IterationView } from '../modules/api/runtime.js';
import type { ThrownValues } from './thrown-values.js';
import type { WorkerInit } from './worker-init.js';
import type { VuTransport } from './vu-transport.js';

/** What rt.baseTags() was last built from. */
export interface BaseTagsKey {
  group: string;
  scenarioName: string;
  scenarioTags: Record<string, string>;
  vuTagsVersion: number;
}

export interface VuState {
  readonly init: WorkerInit;
  /** The way to the main thread: events and the blocking calls. */
  readonly transport: VuTransport;
  /** The VU's slots shared with the main thread (SIGNAL, INTERRUPT, GO, ...). */
  readonly signals: Int32Array;
  /** The run's instance counters (exec.instance), or this VU's own when it runs alone. */
  readonly instanceStats: Int32Array;
  /** Samples waiting for the next flush. */
  readonly samples: SampleBatcher;
  /** System tags options.systemTags keeps; undefined: all. */
  readonly enabledSystemTags: Set<string> | undefined;

  /** True from the start of an iteration until the next call to the main thread, which then empties the jar. */
  jarResetPending: boolean;
  /** noVUConnectionReuse: true from the end of an iteration (or setup) until the next HTTP call, which closes idle connections first. */
  closeIdlePending: boolean;
  /** performance.now() of the last flush of samples. */
  lastFlush: number;
  /** performance.now() at the end of the last iteration. */
  lastIterationEnd: number;

  baseTagsFor: BaseTagsKey;
  baseTagSet: Record<string, string>;
  /** Bumped on every write to exec.vu.tags (rt.vuTagsChanged). */
  vuTagsVersion: number;
  scenarioName: string;
  scenarioTags: Record<string, string>;
  /** The scenario __ENV was last built for. */
  envScenario: string | undefined;

  /** Bytes of the current iteration (or setup/teardown), for data_sent/data_received. */
  sentBytes: number;
  receivedBytes: number;
  abortReason: string | undefined;
  failReason: string | undefined;
  /** __ITER: iterations this VU ran. */
  iterInInstance: number;

  /** Script cookie jars V8 reported collected, posted in one message per event-loop turn. */
  freedJars: number[];
  /** Objects made whose collection the main thread has not been told of yet (rt.awaitingCollection). */
  awaitingCollection: number;
  /** Such objects made since this VU last asked V8 for a full collection (collection.ts). */
  madeSinceCollection: number;
  lastCollectionTurn: number;

  /** The script's module.exports once init ran. */
  scriptExports: Record<string, unknown>;
  /**
   * Where a thrown non-Error value came from, for a script that may throw one. Opened after init:
   * k6 prints no frame for a value thrown there, and the init code compiles faster without a debugger.
   */
  thrownValues: ThrownValues | undefined;
  /** A promise the init code left rejected and unhandled (see lifecycle.ts). */
  rejectedInInit: { reason: unknown } | undefined;
  /** The last full 'iterate' command: what 'iterate-next' reuses. */
  lastIterate: { fnName: string; data: unknown; ctx: IterationView } | undefined;
}

export function createVuState(init: WorkerInit, transport: VuTransport): VuState {
  const instanceStats = new Int32Array(init.instanceStats ?? new SharedArrayBuffer(INSTANCE_STATS_BYTES));
  if (!init.instanceStats) {
    // A VU alone: it is the instance, and its test starts with it.
    instanceStats[INSTANCE_STATS.vusInitialized] = 1;
    testStartIn(instanceStats.buffer)[0] = performance.timeOrigin + performance.now();
  }
  const now = performance.now();
  return {
    init,
    transport,
    signals: new Int32Array(init.signals),
    instanceStats,
    samples: new SampleBatcher(),
    enabledSystemTags: init.systemTags ? new Set(init.systemTags) : undefined,
    jarResetPending: false,
    closeIdlePending: false,
    lastFlush: now,
    lastIterationEnd: now,
    baseTagsFor: { group: '', scenarioName: '', scenarioTags: {}, vuTagsVersion: -1 },
    baseTagSet: {},
    vuTagsVersion: 0,
    scenarioName: '',
    scenarioTags: {},
    envScenario: undefined,
    sentBytes: 0,
    receivedBytes: 0,
    abortReason: undefined,
    failReason: undefined,
    iterInInstance: 0,
    freedJars: [],
    awaitingCollection: 0,
    madeSinceCollection: 0,
    lastCollectionTurn: now,
    scriptExports: {},
    thrownValues: undefined,
    rejectedInInit: undefined,
    lastIterate: undefined,
  };
}
