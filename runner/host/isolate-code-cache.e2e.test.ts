// The VU isolates' code cache (isolate-code-cache.ts): the first VU's isolate makes a warm cache
// that holds what it compiled, and an isolate accepts it.
import assert from 'node:assert/strict';
import type IsolatedVm from 'isolated-vm';
import { isolatesOrSkip } from '../testing/vu-isolates.js';
import { ISOLATE_FILENAME } from '../vu/isolate-code.js';
import { IsolateCodeCache } from './isolate-code-cache.js';
import { loadIsolatedVm } from './isolate-host.js';

const bytes = (cache: IsolatedVm.ExternalCopy<ArrayBuffer> | undefined) => cache?.copy().byteLength ?? 0;

describe('runner/host/isolate-code-cache: cold, then warm from the first VU', function () {
  this.timeout(60_000);

  it('serves the cold cache until warmFrom(); then, once that init ended, a larger one an isolate accepts', async function () {
    isolatesOrSkip(this);
    const lib = loadIsolatedVm() as typeof IsolatedVm;
    const cache = await IsolateCodeCache.prepare(lib);
    const cold = await cache.next();
    assert.ok(bytes(cold.cache) > 0);

    // The first VU: its isolate compiles from the cold cache and runs the bundle (its functions compile).
    const first = new lib.Isolate({ memoryLimit: 64 });
    const owner = { stop: () => first.dispose() };
    try {
      const context = await first.createContext();
      const script = await first.compileScript(cold.code, {
        filename: ISOLATE_FILENAME,
        cachedData: cold.cache,
      });
      await script.run(context);
      let initEnd!: () => void;
      cache.warmFrom(owner, first, new Promise<void>((resolve) => (initEnd = resolve)));
      cache.warmFrom(owner, first, Promise.resolve()); // a second VU's init: nothing
      const next = cache.next();
      initEnd();
      const warm = await next;
      assert.equal(warm.code, cold.code);
      assert.ok(
        bytes(warm.cache) > bytes(cold.cache),
        `warm ${bytes(warm.cache)} B, cold ${bytes(cold.cache)} B`,
      );

      const later = new lib.Isolate({ memoryLimit: 64 });
      try {
        const compiled = await later.compileScript(warm.code, {
          filename: ISOLATE_FILENAME,
          cachedData: warm.cache,
        });
        assert.equal(
          (compiled as IsolatedVm.Script & { cachedDataRejected?: boolean }).cachedDataRejected,
          false,
        );
      } finally {
        later.dispose();
      }
    } finally {
      owner.stop();
    }
  });

  it('keeps the cold cache when the first VU is lost before it could make one', async function () {
    isolatesOrSkip(this);
    const lib = loadIsolatedVm() as typeof IsolatedVm;
    const cache = await IsolateCodeCache.prepare(lib);
    const cold = await cache.next();
    const lost = new lib.Isolate({ memoryLimit: 64 });
    lost.dispose();
    cache.warmFrom({ stop: () => {} }, lost, Promise.resolve());
    assert.equal((await cache.next()).cache, cold.cache);
  });
});
