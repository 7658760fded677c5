// What the VU's code (not the script: nothing here is on the isolate's global) takes from Node's
// globals, made over the host's functions. esbuild injects these names into the isolate's bundle
// (worker-code.ts): Buffer is the `buffer` package (lazy-buffer.ts), the clock and timers are the
// main thread's.
import { host } from './host.js';
import { builtinModule } from './builtin-modules.js';
import { lazyBuffer } from './lazy-buffer.js';

/**
 * esbuild wraps a CommonJS package that is required (not imported) so that it runs when first
 * required: the buffer package is evaluated only in VUs that use Buffer.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const Buffer = lazyBuffer(() => (require('buffer') as typeof import('buffer')).Buffer);

/**
 * The main thread's performance.now(), read without leaving the isolate: the addon's hrtime is
 * libuv's, the clock Node's performance.now() counts from (a call to the main thread for each
 * reading took half of a busy VU's requests per second).
 */
export const performance = {
  now(): number {
    const [s, ns] = host.hrtime();
    const base = host.clockBase;
    return base.perfNow + (s - base.seconds) * 1e3 + (ns - base.nanoseconds) / 1e6;
  },
  get timeOrigin(): number {
    return host.timeOrigin;
  },
};

interface Timer {
  cancelled: boolean;
}

function schedule(ms: number, callback: () => void, repeat: boolean): Timer {
  const timer: Timer = { cancelled: false };
  const wait = Math.max(0, Number(ms) || 0);
  const arm = (): void => {
    void host.timer(wait).then(() => {
      if (timer.cancelled) return;
      if (repeat) arm();
      callback();
    });
  };
  arm();
  return timer;
}

export function setTimeout(callback: () => void, ms?: number): Timer {
  return schedule(ms ?? 0, callback, false);
}
export function setInterval(callback: () => void, ms?: number): Timer {
  return schedule(Math.max(1, ms ?? 0), callback, true);
}
export function setImmediate(callback: () => void): Timer {
  return schedule(0, callback, false);
}
export function clearTimeout(timer: Timer | undefined): void {
  if (timer) timer.cancelled = true;
}
export { clearTimeout as clearInterval, clearTimeout as clearImmediate };

export class TextEncoder {
  readonly encoding = 'utf-8';
  encode(text = ''): Uint8Array {
    const bytes = Buffer.from(String(text), 'utf8');
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
}

export class TextDecoder {
  readonly encoding = 'utf-8';
  decode(input?: ArrayBuffer | ArrayBufferView): string {
    if (input === undefined) return '';
    const view = ArrayBuffer.isView(input)
      ? Buffer.from(input.buffer, input.byteOffset, input.byteLength)
      : Buffer.from(input);
    return view.toString('utf8');
  }
}

/** WHATWG URL, parsed by the main thread's parser (the runner reads a URL's parts only on errors). */
export class URL {
  readonly href!: string;
  readonly origin!: string;
  readonly protocol!: string;
  readonly username!: string;
  readonly password!: string;
  readonly host!: string;
  readonly hostname!: string;
  readonly port!: string;
  readonly pathname!: string;
  readonly search!: string;
  readonly hash!: string;
  constructor(input: string | URL, base?: string | URL) {
    Object.assign(this, host.parseUrl(String(input), base === undefined ? undefined : String(base)));
  }
  toString(): string {
    return this.href;
  }
  toJSON(): string {
    return this.href;
  }
}

export const process = {
  env: {} as Record<string, string | undefined>,
  platform: 'linux',
  cwd: (): string => host.cwd,
  getBuiltinModule: builtinModule,
  hrtime: { bigint: (): bigint => BigInt(Math.round((host.timeOrigin + performance.now()) * 1e6)) },
  on(): void {
    // no process events in an isolate: the host watches the isolate instead
  },
};
