// What the main thread hands a VU's context in a shared isolate (host/shared-isolate-host.ts) and what
// the isolate's code (vu/isolate/) calls it through: the one global the context starts with, taken
// and deleted by the isolate's first module, so a script never sees it.
import type { BridgeCall, HostEvent, WorkerEvent } from './protocol.js';

/** The global the host sets before the isolate's code runs: the code then starts the VU at once. */
export const ISOLATE_HOST_GLOBAL = '$loadlab';
/** The global the isolate's code sets for the host: its VuEntry (vu-main.ts). */
export const ISOLATE_VU_GLOBAL = '$loadlabVu';

/** A file open() and k6/experimental/fs read in init: the whole file, shared, or why not. */
export type HostFileAnswer =
  { buffer: SharedArrayBuffer } | { directory: true } | { code: string | undefined; message: string };

/** The parts of a WHATWG URL the runner reads. */
export interface HostUrlParts {
  href: string;
  origin: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
}

/**
 * The addon's functions in a VU's context (host/native/vu_host.cc), which the isolate's code builds
 * the rest of IsolateHostApi over (vu/isolate/native-host.ts).
 */
export interface NativeVuFunctions {
  /** Blocks this VU (not its isolate's others) until the main thread answers: [ok, answer]. */
  call(kind: NativeCallKind, value: unknown): [boolean, unknown];
  post(kind: NativePostKind, value: unknown): void;
  hrtime(): [number, number];
  /** Atomics.wait's results; woken by the main thread's VuCodeHost.wake(), not Atomics.notify. */
  wait(array: Int32Array, index: number, expected: number, ms: number): 'ok' | 'not-equal' | 'timed-out';
  /**
   * Runs the VU's promise jobs, then takes the reasons of the promises they left rejected with no
   * handler; null from inside a promise job, where the jobs queued cannot run yet.
   */
  rejections(): unknown[] | null;
}

/** What a VU asks the main thread across the addon, and what it tells it. */
export type NativeCallKind = 'call' | 'readFile' | 'digest' | 'randomBytes' | 'parseUrl' | 'sourceMap';
export type NativePostKind = 'post' | 'send' | 'timer';

/**
 * What the main thread hands a VU of the shared-isolate host, after the command: an event (an async
 * call's answer), a timer fired; and what the addon hands it after a turn that left promises rejected
 * with no handler.
 */
export type NativeDispatch =
  { command: unknown } | { event: HostEvent } | { timer: number } | { rejections: unknown[] };

/** What the host sets on the context's global, besides the addon's functions. */
export interface IsolateHostData<Init = unknown> {
  /** The VU's configuration (vu/worker-init.ts's WorkerInit). */
  init: Init;
  /** performance.timeOrigin of the main thread: the isolate's clock reads are relative to it. */
  timeOrigin: number;
  /** The process's working folder (path.resolve of a relative path). */
  cwd: string;
  /** The same instant as process.hrtime() and as the main thread's performance.now(). */
  clockBase: { seconds: number; nanoseconds: number; perfNow: number };
  native: NativeVuFunctions;
}

/** The host as the VU's code uses it: its data, and functions made of the addon's natives. */
export interface IsolateHostApi<Init = unknown> extends IsolateHostData<Init> {
  post(event: WorkerEvent): void;
  send(message: BridgeCall): void;
  /** A blocking call to the main thread: its answer. */
  call(message: BridgeCall): unknown;
  /** The isolate's thread's clock: libuv's hrtime, as process.hrtime(). */
  hrtime(): [number, number];
  /** Resolves after `ms` (0: after one turn of the main thread's event loop). */
  timer(ms: number): Promise<void>;
  readFile(absPath: string): HostFileAnswer;
  /** A hash (or an HMAC when `key` is given) by its OpenSSL name. */
  digest(algorithm: string, data: Uint8Array, key?: Uint8Array): Uint8Array;
  randomBytes(count: number): Uint8Array;
  /**
   * The script bundle's source map, kept on the main thread: a suite script's is twice its code, and
   * a VU reads it only to place an error (vu/script-text.ts parses it on first use).
   */
  sourceMap(): string | undefined;
  /** Throws a TypeError for what the WHATWG URL parser refuses. */
  parseUrl(input: string, base?: string): HostUrlParts;
}
