// The VU isolates' code and V8's code cache of it. Each isolate compiles the same bundle from the
// cache. A cache made right after compiling holds only the bundle's top level: every isolate then
// compiled, on its own, each function a VU runs while it starts (the VU's wiring, init, the modules
// the script imports). So the first VU to run init makes a second cache in its own isolate, where
// those functions are compiled by then (V8 finds the same script in that isolate's compilation cache
// and serialises it as it stands), and the VUs started after it begin from that one.
// (A V8 snapshot of the evaluated code, isolated-vm's createSnapshot, started VUs no faster on the
// 2-core host and moved the work onto the main thread's `new Isolate`; its README warns against it.)
import type IsolatedVm from 'isolated-vm';
import { ISOLATE_FILENAME, isolateCode } from '../vu/isolate-code.js';
import { trackIsolateCall, type IsolateOwner } from './isolate-exit.js';

type Ivm = typeof IsolatedVm;
type Cache = IsolatedVm.ExternalCopy<ArrayBuffer>;

export interface PreparedCode {
  code: string;
  cache: Cache | undefined;
}

function cacheOf(script: IsolatedVm.Script): Cache | undefined {
  return (script as IsolatedVm.Script & IsolatedVm.CachedDataResult).cachedData;
}

export class IsolateCodeCache {
  private current: PreparedCode;
  /** Set once the first VU's init was sent: the warm cache in the making, or done. */
  private warming: Promise<void> | undefined;

  private constructor(code: string, cache: Cache | undefined) {
    this.current = { code, cache };
  }

  /** The bundle and its cold cache, compiled in a throwaway isolate. */
  static async prepare(lib: Ivm): Promise<IsolateCodeCache> {
    const code = await isolateCode();
    const probe = new lib.Isolate({ memoryLimit: 32 });
    try {
      return new IsolateCodeCache(
        code,
        cacheOf(probe.compileScriptSync(code, { filename: ISOLATE_FILENAME, produceCachedData: true })),
      );
    } finally {
      probe.dispose();
    }
  }

  /** What the next isolate compiles; while the first VU makes the warm cache, that one. */
  async next(): Promise<PreparedCode> {
    await this.warming;
    return this.current;
  }

  /**
   * The first VU to run init calls this with its isolate and that init's end: once it ends, the
   * cache is made again there, and the promise returned settles (that isolate must run nothing else
   * meanwhile). Later calls do nothing and return undefined. A failure keeps the cold cache.
   */
  warmFrom(
    owner: IsolateOwner,
    isolate: IsolatedVm.Isolate,
    initEnded: Promise<unknown>,
  ): Promise<void> | undefined {
    if (this.warming) return undefined;
    this.warming = initEnded
      .then(async () => {
        const script = await trackIsolateCall(
          owner,
          isolate.compileScript(this.current.code, { filename: ISOLATE_FILENAME, produceCachedData: true }),
        );
        const warm = cacheOf(script);
        script.release();
        if (warm) this.current = { ...this.current, cache: warm };
      })
      .catch(() => {});
    return this.warming;
  }
}
