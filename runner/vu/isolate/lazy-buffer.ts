// Buffer for the VU's code in an isolate, made from the `buffer` package on first use: its classes
// and tables cost each VU isolate ~1.3 ms of CPU and ~60-140 KB at start, and a script that only
// sends requests and checks them never needs Buffer (the engine decodes text bodies).
type BufferClass = typeof import('buffer').Buffer;

/** A stand-in for Buffer that loads it (once) when first used, and passes every use on to it. */
export function lazyBuffer(load: () => BufferClass): BufferClass {
  let loaded: BufferClass | undefined;
  const real = (): BufferClass => (loaded ??= load());
  // A function target, so that `new Buffer(...)`, `Buffer(...)` and `instanceof Buffer` work.
  return new Proxy(function Buffer() {} as unknown as BufferClass, {
    get: (_target, key) => Reflect.get(real(), key),
    has: (_target, key) => Reflect.has(real(), key),
    construct: (_target, args) => Reflect.construct(real(), args),
    apply: (_target, self, args) => Reflect.apply(real(), self, args),
    getPrototypeOf: () => Reflect.getPrototypeOf(real()),
  });
}
