// The host's functions over the shared-isolate addon (host/native/vu_host.cc, host/shared-isolate-host.ts):
// that host hands a VU's context its data and four natives (a blocking call to the main thread, a post,
// the clock, a wait), and the rest of IsolateHostApi is made of them here, so the VU's code is the same
// bundle whichever host runs it. Timers and commands come back as dispatches, run by the VU's thread
// between its calls.
import type {
  HostFileAnswer,
  HostReference,
  HostUrlParts,
  IsolateHostApi,
  NativeCallKind,
  NativeDispatch,
  NativeVuFunctions,
} from '../../bridge/isolate-api.js';
import type { HostEvent } from '../../bridge/protocol.js';

/** An error the main thread answered with, as it was thrown there (its name and message). */
interface ThrownAnswer {
  name: string;
  message: string;
}

const ERRORS: Record<string, ErrorConstructor> = { TypeError, RangeError, SyntaxError };

function callOf(native: NativeVuFunctions) {
  return <T>(kind: NativeCallKind, value?: unknown): T => {
    const [ok, answer] = native.call(kind, value);
    if (ok) return answer as T;
    const thrown = answer as ThrownAnswer;
    const error = new (ERRORS[thrown.name] ?? Error)(thrown.message);
    throw error;
  };
}

/** A host reference whose only use here is the blocking one. */
function blocking<A extends unknown[], R>(run: (...args: A) => R): HostReference<A, R> {
  return {
    applySyncPromise: (_receiver, args) => run(...args),
    apply: (_receiver, args) => Promise.resolve(run(...args)),
  };
}

/** What the VU does with what is dispatched to it. */
export interface NativeHandlers {
  command(command: unknown): Promise<void>;
  event(event: HostEvent): void;
  /** A promise the VU left rejected with no handler (the addon reports them after each turn). */
  rejection(reason: unknown): void;
}

/**
 * Completes `host` (the data and natives the shared-isolate host gave) into the API the VU's code
 * uses, and returns what runs the main thread's and the addon's dispatches.
 */
export function completeNativeHost(
  host: IsolateHostApi,
  native: NativeVuFunctions,
  handle: NativeHandlers,
): (dispatch: NativeDispatch) => void {
  const call = callOf(native);
  const timers = new Map<number, () => void>();
  let lastTimer = 0;
  Object.assign(host, {
    post: (event: unknown) => native.post('post', event),
    send: (message: unknown) => native.post('send', message),
    call: blocking((message: unknown) => call('call', message)),
    next: blocking(() => {
      throw new Error('a shared-isolate VU is handed its commands: it has no serve loop');
    }),
    lib: { hrtime: () => native.hrtime() },
    timer: {
      applySyncPromise: () => {
        throw new Error('timers do not block');
      },
      apply: (_receiver: undefined, [ms]: [number]) =>
        new Promise<void>((resolve) => {
          const id = ++lastTimer;
          timers.set(id, resolve);
          native.post('timer', [id, ms]);
        }),
    },
    readFile: (absPath: string) => call<HostFileAnswer>('readFile', absPath),
    digest: (algorithm: string, data: Uint8Array, key?: Uint8Array) =>
      call<Uint8Array>('digest', [algorithm, data, key]),
    randomBytes: (count: number) => call<Uint8Array>('randomBytes', count),
    parseUrl: (input: string, base?: string) => call<HostUrlParts>('parseUrl', [input, base]),
    sourceMap: () => call<string | undefined>('sourceMap'),
  } satisfies Omit<IsolateHostApi, 'init' | 'timeOrigin' | 'cwd' | 'clockBase' | 'native'>);
  return (dispatch) => {
    if ('timer' in dispatch) {
      const fire = timers.get(dispatch.timer);
      timers.delete(dispatch.timer);
      fire?.();
    } else if ('event' in dispatch) {
      handle.event(dispatch.event);
    } else if ('rejections' in dispatch) {
      for (const reason of dispatch.rejections) handle.rejection(reason);
    } else {
      void handle.command(dispatch.command);
    }
  };
}
