// The host's functions over the shared-isolate addon (host/native/vu_host.cc, host/shared-isolate-host.ts):
// that host hands a VU's context its data and a few natives (a blocking call to the main thread, a
// post, the clock, a wait), and the rest of IsolateHostApi is made of them here. Timers, commands and
// events come back as dispatches, run by the VU's thread between its calls.
import type {
  HostFileAnswer,
  HostUrlParts,
  IsolateHostApi,
  IsolateHostData,
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

/** What the VU does with what is dispatched to it. */
export interface NativeHandlers {
  command(command: unknown): Promise<void>;
  event(event: HostEvent): void;
  /** A promise the VU left rejected with no handler (the addon reports them after each turn). */
  rejection(reason: unknown): void;
}

/**
 * The API the VU's code uses, made of the data and natives the host gave, and what runs the main
 * thread's and the addon's dispatches.
 */
export function completeNativeHost<Init>(
  data: IsolateHostData<Init>,
  handle: NativeHandlers,
): { host: IsolateHostApi<Init>; dispatch: (dispatch: NativeDispatch) => void } {
  const native = data.native;
  const call = callOf(native);
  const timers = new Map<number, () => void>();
  let lastTimer = 0;
  const host: IsolateHostApi<Init> = {
    ...data,
    post: (event) => native.post('post', event),
    send: (message) => native.post('send', message),
    call: (message) => call('call', message),
    hrtime: () => native.hrtime(),
    timer: (ms) =>
      new Promise<void>((resolve) => {
        const id = ++lastTimer;
        timers.set(id, resolve);
        native.post('timer', [id, ms]);
      }),
    readFile: (absPath) => call<HostFileAnswer>('readFile', absPath),
    digest: (algorithm, data, key) => call<Uint8Array>('digest', [algorithm, data, key]),
    randomBytes: (count) => call<Uint8Array>('randomBytes', count),
    parseUrl: (input, base) => call<HostUrlParts>('parseUrl', [input, base]),
    sourceMap: () => call<string | undefined>('sourceMap'),
  };
  const dispatch = (dispatch: NativeDispatch) => {
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
  return { host, dispatch };
}
