// `k6/data`: SharedArray. k6 runs the function once and shares the JSON of its elements between VUs;
// so does the runner: the first VU to make a name (VU 0, reading the options) runs the function and
// puts the texts in one SharedArrayBuffer (shared-texts.ts) that every later VU worker of the run reads.
// What a script sees is k6's: an array (Array.isArray, map, for...of) whose elements are new, deeply
// frozen copies on every read, and which refuses every change with "SharedArray is immutable".
import { goError } from '../api/go-error.js';
import type { VuRuntime } from '../api/runtime.js';
import type { Texts } from './shared-texts.js';

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner);
    Object.freeze(value);
  }
  return value;
}

const UNSERIALIZABLE = 'undefined';

function immutable(): never {
  throw new TypeError('SharedArray is immutable');
}

/** A SharedArray over the JSON texts of its elements (k6/experimental/csv builds one too). */
export function sharedArray(items: Texts): unknown[] {
  const index = (key: string | symbol) => {
    if (typeof key !== 'string' || !/^(0|[1-9]\d*)$/.test(key)) return -1;
    const i = Number(key);
    return i < items.length ? i : -1;
  };
  const read = (i: number) => {
    // k6 v1.3 keeps an element JSON cannot hold (undefined, a function) as the text "undefined",
    // and every read of it fails in Go's JSON decoder: so does this one.
    const text = items.at(i)!;
    if (text === UNSERIALIZABLE) {
      throw new SyntaxError("invalid character 'u' looking for beginning of value");
    }
    return deepFreeze(JSON.parse(text) as unknown);
  };
  // An array target of the right length makes Array.isArray, length and Array.prototype work.
  return new Proxy(new Array<unknown>(items.length), {
    get(target, key, receiver) {
      const i = index(key);
      return i >= 0 ? read(i) : Reflect.get(target, key, receiver);
    },
    has: (target, key) => index(key) >= 0 || Reflect.has(target, key),
    ownKeys: (target) =>
      Array.from({ length: items.length }, (_, i) => String(i)).concat(Reflect.ownKeys(target) as string[]),
    getOwnPropertyDescriptor(target, key) {
      const i = index(key);
      if (i < 0) return Reflect.getOwnPropertyDescriptor(target, key);
      // A getter: listing the keys (Object.keys) reads no element, as in k6.
      return { get: () => read(i), enumerable: true, configurable: true };
    },
    set: immutable,
    defineProperty: immutable,
    deleteProperty: immutable,
    setPrototypeOf: immutable,
  });
}

export function createDataModule(rt: VuRuntime): Record<string, unknown> {
  // A class so that `new SharedArray(...)` works; its constructor returns the array proxy.
  class SharedArray {
    constructor(name: unknown, make: unknown) {
      if (rt.phase !== 'init') throw goError('new SharedArray must be called in the init context');
      if (name === undefined || name === null || String(name) === '') {
        throw goError("empty name provided to SharedArray's constructor");
      }
      if (typeof make !== 'function') throw goError('a function is expected');
      const shared = rt.sharedArrays.get(String(name));
      if (shared) return sharedArray(shared) as unknown as SharedArray;
      const made = (make as () => unknown)();
      if (made === undefined || made === null) {
        throw new TypeError('Cannot convert undefined or null to object');
      }
      if (!Array.isArray(made)) throw goError('only arrays can be made into SharedArray');
      const items = made.map((item: unknown) => JSON.stringify(item) ?? UNSERIALIZABLE);
      return sharedArray(rt.sharedArrays.publish(String(name), items)) as unknown as SharedArray;
    }
  }
  return { SharedArray };
}
