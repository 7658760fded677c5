// What the k6 module implementations need from the VU that runs them. The worker
// (runner/vu/vu-runtime.ts) provides it; tests can provide their own.
import type { SampleMetadata } from '../../bridge/sample-metadata.js';
import type { Sample } from '../../contracts.js';
import type {
  BatchLimits,
  HttpEvent,
  JarAnswer,
  JarOp,
  RequestTuple,
  ResponseTuple,
} from '../../bridge/protocol.js';
import type { GrpcAnswer, GrpcEvent, GrpcOp } from '../../bridge/grpc-protocol.js';
import type { PendingWork } from '../../event-loop/pending-work.js';
import type { IterationView } from '../../bridge/iteration-view.js';
import type { SharedArrays } from '../data/shared-texts.js';

// The clock and the iteration view are the bridge's (the main thread uses them too); modules reach them here.
export { epochMs, nowMs } from '../../bridge/clock.js';
export type { IterationView } from '../../bridge/iteration-view.js';

export type Phase = 'init' | 'setup' | 'iteration' | 'teardown' | 'summary';

export interface VuRuntime {
  readonly vuId: number;
  readonly env: Record<string, string>;
  /** The folder of the script: relative paths (open(), k6/experimental/fs) are its. */
  readonly scriptDir: string;
  readonly phase: Phase;
  /** The iteration in progress (undefined outside 'iteration'). */
  readonly iteration: IterationView | undefined;
  /** k6's metadata of the samples this VU emits from now on (exec.vu.metrics.metadata). */
  readonly metadata: SampleMetadata;
  /** Options of the test, available in setup/teardown/iterations. */
  readonly testOptions: Record<string, unknown> | undefined;
  /** Current group path: '' at the root, '::A::B' nested. */
  groupPath: string;
  /** Tags every sample carries now: run tags, scenario tags, `scenario`, `group`, user vu tags (a new object each call). */
  currentTags(): Record<string, string>;
  /**
   * currentTags() less the system tags options.systemTags leaves out, as one object for as long as
   * none of them changes: rows that share it cross to the main thread once per batch. Never mutate it.
   */
  baseTags(): Record<string, string>;
  /** User tags set through exec.vu.tags / exec.vu.metrics.tags (read/write). */
  readonly vuTags: Record<string, string>;
  /** Called after every change of vuTags (so baseTags() is rebuilt). */
  vuTagsChanged(): void;
  emit(sample: Sample): void;
  /** emit() without a Sample object: the hot path (http_req_*) calls it 10+ times per request. */
  record(
    metric: string,
    type: Sample['type'],
    contains: Sample['contains'],
    value: number,
    tags: Record<string, string>,
    time: number,
  ): void;
  /**
   * The samples of request `requestId`'s hops (http_reqs, http_req_*, http_req_failed): the main
   * thread builds them from the answer it keeps, each at its hop's end as k6 stamps them, tagged
   * with `tags` (baseTags() unless given: an async request's are those of its call) and the request's
   * own tags (host/http-samples.ts).
   */
  recordHttp(requestId: number, tags?: Record<string, string>): void;
  /**
   * Sends the requests (several for http.batch, under its `limits`) to the main thread and blocks
   * until all answers arrive.
   */
  httpSync(reqs: RequestTuple[], limits?: BatchLimits): ResponseTuple[];
  /**
   * http.asyncRequest: sends the requests without blocking; their answers come to `onHttpEvent`
   * under the call number returned.
   */
  httpPost(reqs: RequestTuple[]): number;
  onHttpEvent: ((event: HttpEvent) => void) | undefined;
  /** Operates on the VU's cookie jar (kept with its HTTP transport on the main thread). */
  jarSync(op: JarOp): JarAnswer;
  /** Blocks for ms, returns early when the iteration is interrupted. */
  sleepMs(ms: number): void;
  /** Throws the interruption marker when the iteration must stop. */
  checkInterrupted(): void;
  /**
   * A log line of the VU. `fields` are logrus fields as k6 prints them after the message: console.*
   * lines carry `source=console`, k6's own warnings their own (Request Failed: `error=...`).
   */
  log(level: 'debug' | 'info' | 'warn' | 'error', message: string, fields?: Record<string, string>): void;
  /** Registers a custom metric (k6 fixes a metric's type by its first declaration). */
  declareMetric(name: string, type: Sample['type'], contains: Sample['contains']): void;
  /** exec.test.abort / exec.test.fail. */
  abortTest(reason: string): never;
  markFailed(reason: string): void;
  /** Response callback in force for later requests of this VU, as expectedStatuses ranges (null: none). */
  responseCallback: readonly number[] | null;
  /** The run's --secret-source secrets by source name ('default' too), for k6/secrets. */
  readonly secretSources: Record<string, Record<string, string>>;
  /** The run's SharedArrays (k6/data): made once, read by every VU. */
  readonly sharedArrays: SharedArrays;
  /** Tells the main thread a secret was read, so the logger redacts it from then on. */
  revealSecret(value: string): void;
  /** k6/net/grpc: an operation the main thread answers (the VU blocks until then). */
  grpcSync(op: GrpcOp): GrpcAnswer;
  /** k6/net/grpc: an operation whose outcome comes back as events to `onGrpcEvent`. */
  grpcPost(op: GrpcOp): void;
  onGrpcEvent: ((event: GrpcEvent) => void) | undefined;
  /** Bytes a module's own connections moved (k6/ws, k6/net/grpc), for this iteration's data_sent/data_received. */
  countTraffic(sent: number, received: number): void;
  /** Asynchronous work the current iteration waits for (streams, async calls). */
  readonly pending: PendingWork;
  /**
   * A script-made cookie jar (`new http.CookieJar()`) the script can no longer reach: the main
   * thread drops it (told in one message with the others found by the same collection).
   */
  forgetJar(id: number): void;
  /**
   * Counts objects whose collection the main thread must hear of (+1 made, -1 told): while any are
   * left, a looping VU lets its event loop run now and then, where V8 reports them collected.
   */
  awaitingCollection(delta: number): void;
  /** Reads a file relative to the script (open() in init). */
  readFile(p: string, binary: boolean): string | ArrayBuffer;
  /** A file's bytes as every VU of the run shares them (read from disk once per run), or why not. */
  initFile(absPath: string): InitFile;
}

/**
 * What a VU gets for a file opened in init: bytes shared with every VU (never to be written), or a
 * failure for the caller to word as its k6 function does. `never-opened`: VU 0 did not open this path.
 */
export type InitFile =
  | { bytes: Uint8Array; failure?: undefined }
  | { bytes?: undefined; failure: 'never-opened' | 'missing' | 'directory' }
  | { bytes?: undefined; failure: 'unreadable'; error: unknown };

/** Thrown inside the script to unwind it when the orchestrator interrupts the iteration. */
export class InterruptSignal extends Error {
  override name = 'InterruptSignal';
  constructor() {
    super('iteration interrupted');
  }
}

/** Marks an AbortSignal across copies of this file (the browser module is loaded beside the worker bundle). */
const ABORT_MARK = Symbol.for('loadlab.abortTest');

/**
 * Thrown by exec.test.abort() (and by k6/browser when Chromium cannot start): unwinds the script; the
 * worker turns it into IterationResult.abort. `logged` is k6's log line before the location.
 */
export class AbortSignal extends Error {
  override name = 'AbortSignal';
  readonly [ABORT_MARK] = true;
  constructor(
    readonly reason: string,
    readonly logged = `test aborted: ${reason}`,
  ) {
    super(reason);
  }
}

/**
 * A module export under this key is called when an iteration of an async default function ends
 * (k6's IterEnd event): k6/browser closes the iteration's browser context there.
 */
export const ITERATION_END = Symbol.for('loadlab.iterationEnd');

export function isAbortSignal(err: unknown): err is AbortSignal {
  return typeof err === 'object' && err !== null && (err as Record<symbol, unknown>)[ABORT_MARK] === true;
}
