// `k6/experimental/streams`: ReadableStream, CountQueuingStrategy and ReadableStreamDefaultReader as
// k6 v1.3 exports them, on Node's WHATWG streams. What differs from Node is k6's face: its argument
// checks and error words, no byte streams, a read at the end resolving `{done: true}` without a
// value, a reader that rejects its reads once released, and a strategy whose fields are its own.
import type {
  ReadableStreamDefaultController,
  ReadableStreamDefaultReader as NodeReader,
} from 'node:stream/web';
import { goError } from '../api/go-error.js';

type Source = Record<string, unknown>;

/** k6 words every refused enqueue or close alike. */
function guarded<T>(op: () => T): T {
  try {
    return op();
  } catch (error) {
    if (error instanceof TypeError) throw new TypeError('cannot close or enqueue', { cause: error });
    throw error;
  }
}

/** The controller the script's source sees: Node's, with k6's error for a closed stream. */
function k6Controller(controller: ReadableStreamDefaultController<unknown>): Record<string, unknown> {
  return {
    get desiredSize() {
      return controller.desiredSize;
    },
    enqueue: (chunk: unknown) => guarded(() => controller.enqueue(chunk)),
    close: () => guarded(() => controller.close()),
    error: (reason: unknown) => controller.error(reason),
  };
}

function checkedSource(source: unknown): Source | undefined {
  if (source === undefined || source === null) return undefined;
  if (typeof source !== 'object' && typeof source !== 'function') {
    throw new TypeError('underlyingSource must be an object');
  }
  const type = (source as Source).type;
  if (type === 'bytes') throw goError("NotSupportedError:'bytes' stream is not supported yet");
  if (type !== undefined) throw new TypeError('invalid underlying source type');
  const s = source as Source;
  // The script's callbacks, called with `this` as their source and k6's controller.
  const call = (name: string, ...args: unknown[]) =>
    typeof s[name] === 'function' ? (s[name] as (...a: unknown[]) => unknown).apply(s, args) : undefined;
  const wrapped: Source = {};
  // One k6 controller per stream, so a source may keep the one start() received.
  let controller: Record<string, unknown> | undefined;
  const k6c = (c: ReadableStreamDefaultController<unknown>) => (controller ??= k6Controller(c));
  if (typeof s.start === 'function')
    wrapped.start = (c: ReadableStreamDefaultController<unknown>) => call('start', k6c(c));
  if (typeof s.pull === 'function')
    wrapped.pull = (c: ReadableStreamDefaultController<unknown>) => call('pull', k6c(c));
  if (typeof s.cancel === 'function') wrapped.cancel = (reason: unknown) => call('cancel', reason);
  return wrapped;
}

function checkedStrategy(strategy: unknown): QueuingStrategyLike | undefined {
  if (strategy === undefined || strategy === null) return undefined;
  const { highWaterMark, size } = strategy as { highWaterMark?: unknown; size?: unknown };
  const mark = highWaterMark === undefined ? undefined : Number(highWaterMark);
  if (mark !== undefined && (Number.isNaN(mark) || mark < 0)) {
    throw new RangeError('highWaterMark must be a non-negative number');
  }
  if (size !== undefined && typeof size !== 'function') throw new TypeError('size must be a function');
  return { highWaterMark: mark, size: size as ((chunk: unknown) => number) | undefined };
}

interface QueuingStrategyLike {
  highWaterMark?: number;
  size?: (chunk: unknown) => number;
}

/** The reader a script holds: reads end in `{done: true}`, and reject once the lock is released. */
function k6Reader(reader: NodeReader<unknown>): Record<string, unknown> {
  let released = false;
  return {
    get closed() {
      return reader.closed;
    },
    cancel: (reason?: unknown) => reader.cancel(reason),
    read: async () => {
      if (released) throw new TypeError('stream is undefined');
      const { done, value } = await reader.read();
      return done ? { done: true } : { value, done: false };
    },
    releaseLock: () => {
      released = true;
      reader.releaseLock();
    },
  };
}

export function createStreamsModule(): Record<string, unknown> {
  // node:stream/web when the script imports the module: loaded at every VU's start it cost 2-9 ms.
  const NodeReadableStream = process.getBuiltinModule('node:stream/web').ReadableStream;
  class ReadableStream extends NodeReadableStream<unknown> {
    constructor(underlyingSource?: unknown, strategy?: unknown) {
      const source = checkedSource(underlyingSource);
      super(source as never, checkedStrategy(strategy) as never);
    }

    override getReader(): never {
      if (this.locked) throw new TypeError('stream is locked');
      return k6Reader(super.getReader()) as never;
    }
  }

  class ReadableStreamDefaultReader {
    constructor(stream?: unknown) {
      if (!(stream instanceof ReadableStream)) {
        throw new TypeError('ReadableStreamDefaultReader argument must be a ReadableStream');
      }
      return stream.getReader() as unknown as ReadableStreamDefaultReader;
    }
  }

  class CountQueuingStrategy {
    readonly highWaterMark: number;
    readonly size: () => number;
    constructor(init?: unknown) {
      if (init === undefined || init === null || typeof init !== 'object') {
        throw new TypeError('CountQueuingStrategy takes a single argument');
      }
      this.highWaterMark = Number((init as { highWaterMark?: unknown }).highWaterMark);
      this.size = () => 1;
    }
  }

  return { ReadableStream, CountQueuingStrategy, ReadableStreamDefaultReader };
}
