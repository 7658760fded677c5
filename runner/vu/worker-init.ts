// What a VU thread is started with and what its VU then sends it: the types the main thread
// (host/hosted-vu.ts, host/vu-threads.ts) names of the worker, apart from its code.
import type { MessagePort } from 'node:worker_threads';
import type { ScriptBundle } from '../script/load-script.js';

export interface WorkerInit {
  scriptPath: string;
  bundle: ScriptBundle;
  vuId: number;
  env: Record<string, string>;
  runTags: Record<string, string>;
  systemTags: string[] | undefined;
  signals: SharedArrayBuffer;
  /** Absolute path of @grpc/proto-loader's entry, loaded when a script loads protos. */
  protoLoaderPath: string;
  /** file:// URL of runner/modules/browser/index.(ts|js). */
  browserModuleUrl: string;
  /** file:// URL of tsx's ESM API when the runner runs from TypeScript sources. */
  tsxApiUrl: string | undefined;
  /** --secret-source secrets by source name (k6/secrets). */
  secretSources?: Record<string, Record<string, string>>;
  /** The run's INSTANCE_STATS; absent for a VU made on its own (tests), which counts only itself. */
  instanceStats?: SharedArrayBuffer;
  /** SharedArrays other VUs of the run made (k6/data), by name. */
  sharedArrays?: Record<string, SharedArrayBuffer>;
}

/** A Node worker's WorkerInit: its ports to the main thread come with it. */
export interface WorkerThreadInit extends WorkerInit {
  httpPort: MessagePort;
  /** Events the main thread posts on its own (k6/net/grpc streams and async calls). */
  eventPort: MessagePort;
}

/** What a VU thread is started with (host/vu-threads.ts), before it knows its VU. */
export interface VuThreadStart {
  /** Set to 1 once the VU's WorkerInit is on configPort. */
  wake: SharedArrayBuffer;
  configPort: MessagePort;
}
