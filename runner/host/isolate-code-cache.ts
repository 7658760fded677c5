// The VU isolates' code and V8's code cache of it. Each isolate compiles the same bundle from the
// cache. A cache made right after compiling holds only the bundle's top level: every isolate then
// compiled, on its own, each function a VU runs while it starts (the VU's wiring, init, the modules
// the script imports). So the first VU to run init makes a second cache in its own isolate, where
// those functions are compiled by then (V8 finds the same script in that isolate's compilation cache
// and serialises it as it stands), and the VUs started after it begin from that one. At the run's
// end the cache is made once more, in a VU that ran iterations, and kept for the next run
// (saved-code-cache.ts), which then starts every VU from it.
// (A V8 snapshot of the evaluated code, isolated-vm's createSnapshot, started VUs no faster on the
// 2-core host and moved the work onto the main thread's `new Isolate`; its README warns against it.)
import type IsolatedVm from 'isolated-vm';
import { ISOLATE_FILENAME, isolateCode } from '../vu/isolate-code.js';
import { leftToExit, noteIsolateDisposed, trackIsolateCall, type IsolateOwner } from './isolate-exit.js';
import { savedCodeCache, type SavedCodeCache } from './saved-code-cache.js';

type Ivm = typeof IsolatedVm;
type Cache = IsolatedVm.ExternalCopy<ArrayBuffer>;

export interface PreparedCode {
  code: string;
  cache: Cache | undefined;
}

function cacheOf(script: IsolatedVm.Script): Cache | undefined {
  return (script as IsolatedVm.Script & IsolatedVm.CachedDataResult).cachedData;
}

/** isolated-vm sets `cachedDataRejected` on a script compiled with a cache (its types leave it out). */
const acceptedCache = (script: IsolatedVm.Script) =>
  (script as IsolatedVm.Script & { cachedDataRejected?: boolean }).cachedDataRejected === false;

/** The bytes a cache holds (isolated-vm's copy; a cache is ~100-300 KB). */
const bytesOf = (cache: Cache) => new Uint8Array(cache.copy());

export class IsolateCodeCache {
  private current: PreparedCode;
  /** Set once the first VU's init was sent: the warm cache in the making, or done. */
  private warming: Promise<void> | undefined;
  /** Set once a VU at its end was asked for the cache to keep. */
  private saving: Promise<void> | undefined;

  private constructor(
    code: string,
    cache: Cache | undefined,
    private readonly saved: SavedCodeCache | undefined,
    /** The size of the saved cache this run started from; 0 when it started cold. */
    private readonly savedBytes: number,
  ) {
    this.current = { code, cache };
    // A saved cache holds what the last run compiled: no VU needs to wait for a warm one.
    if (savedBytes > 0) this.warming = Promise.resolve();
  }

  /**
   * The bundle and its cache: the saved one when V8 accepts it (checked in a throwaway isolate),
   * else a cold one compiled there.
   */
  static async prepare(
    lib: Ivm,
    savedFor: (code: string) => SavedCodeCache | undefined = savedCodeCache,
  ): Promise<IsolateCodeCache> {
    const code = await isolateCode();
    const saved = savedFor(code);
    const probe = new lib.Isolate({ memoryLimit: 32 });
    try {
      const kept = saved?.read();
      if (kept) {
        const cache = new lib.ExternalCopy(kept) as Cache;
        // V8 rejects a cache made under other flags (or another V8): then a cold one, and a new save.
        if (acceptedCache(probe.compileScriptSync(code, { filename: ISOLATE_FILENAME, cachedData: cache })))
          return new IsolateCodeCache(code, cache, saved, kept.byteLength);
      }
      const cold = probe.compileScriptSync(code, { filename: ISOLATE_FILENAME, produceCachedData: true });
      return new IsolateCodeCache(code, cacheOf(cold), saved, 0);
    } finally {
      IsolateCodeCache.release(probe);
    }
  }

  /** The throwaway isolates kept for the process's exit (see release()). */
  private static readonly keptForExit: IsolatedVm.Isolate[] = [];

  /**
   * Ends the throwaway isolate, or, where the command line's process ends with the run, keeps it
   * idle for process.exit() as VUs keep theirs: a disposed isolate makes the exit wait 100 ms for
   * threads that may still be destroying it (isolate-exit.ts), a third of a 1-VU run's wall time.
   * Kept referenced: a collected handle would dispose it whenever V8 collects.
   */
  private static release(probe: IsolatedVm.Isolate): void {
    if (leftToExit()) {
      IsolateCodeCache.keptForExit.push(probe);
      return;
    }
    probe.dispose();
    noteIsolateDisposed();
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
        const warm = await this.made(owner, isolate);
        if (warm) this.current = { ...this.current, cache: warm };
      })
      .catch(() => {});
    return this.warming;
  }

  /**
   * The first VU to end after running commands calls this with its idle isolate, before disposing
   * of it: the cache made there holds what its iterations compiled, and is saved when it holds more
   * than the saved one this run started from. Later calls do nothing and return undefined.
   */
  saveFrom(owner: IsolateOwner, isolate: IsolatedVm.Isolate): Promise<void> | undefined {
    const saved = this.saved;
    if (!saved || this.saving) return undefined;
    this.saving = this.made(owner, isolate)
      .then((cache) => {
        const bytes = cache && bytesOf(cache);
        if (bytes && bytes.byteLength > this.savedBytes) saved.write(bytes);
      })
      .catch(() => {});
    return this.saving;
  }

  /** The cache of the bundle as `isolate` holds it now. */
  private async made(owner: IsolateOwner, isolate: IsolatedVm.Isolate): Promise<Cache | undefined> {
    const script = await trackIsolateCall(
      owner,
      isolate.compileScript(this.current.code, { filename: ISOLATE_FILENAME, produceCachedData: true }),
    );
    const cache = cacheOf(script);
    script.release();
    return cache;
  }
}
