// The VU isolates' code cache (isolate-code-cache.ts): the first VU's isolate makes a warm cache
// that holds what it compiled, and an isolate accepts it; a VU at its end makes the one kept for the
// next run (saved-code-cache.ts), which that run's VUs start from without compiling again.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type IsolatedVm from 'isolated-vm';
import { REPO, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { runCommand } from '../../devkit/command.js';
import { ISOLATE_FILENAME } from '../vu/isolate-code.js';
import { IsolateCodeCache } from './isolate-code-cache.js';
import { loadIsolatedVm } from './isolate-host.js';
import { savedCodeCache } from './saved-code-cache.js';
import { ISOLATE_HOST_ENV, isolatesOrSkip, SHARED_HOST_ENV } from '../testing/vu-isolates.js';

/** The VU hosts that keep V8's code cache from one run to the next. */
const CACHING_HOSTS = [
  ['isolated-vm', ISOLATE_HOST_ENV],
  ['shared isolates', SHARED_HOST_ENV],
] as const;

const LOADLAB = join(REPO, 'bin', 'loadlab.js');
const SHORT_RUN = join(import.meta.dirname, 'fixtures', 'short-run.js');

/**
 * From one isolate's V8 log (--log-function-events): the names of the VU bundle's functions that
 * isolate compiled (`function,interpreter,<script>,...`); undefined for an isolate without the bundle.
 */
function bundleCompiles(log: string): string[] | undefined {
  const rows = log.split('\n').map((line) => line.split(','));
  const script = rows.find((row) => row[0] === 'script-details' && row[2] === ISOLATE_FILENAME)?.[1];
  if (script === undefined) return undefined;
  return rows
    .filter((row) => row[0] === 'function' && row[1] === 'interpreter' && row[2] === script)
    .map((row) => row.at(-1) ?? '');
}

const bytes = (cache: IsolatedVm.ExternalCopy<ArrayBuffer> | undefined) => cache?.copy().byteLength ?? 0;
const nothingSaved = () => undefined;

/** A VU isolate that compiled the bundle from `prepared` and ran its top level. */
async function ranBundle(
  lib: typeof IsolatedVm,
  prepared: { code: string; cache?: IsolatedVm.ExternalCopy<ArrayBuffer> },
) {
  const isolate = new lib.Isolate({ memoryLimit: 64 });
  const context = await isolate.createContext();
  const script = await isolate.compileScript(prepared.code, {
    filename: ISOLATE_FILENAME,
    cachedData: prepared.cache,
  });
  await script.run(context);
  return { isolate, owner: { stop: () => isolate.dispose() } };
}

describe('runner/host/isolate-code-cache: cold, then warm from the first VU', function () {
  this.timeout(60_000);

  it('serves the cold cache until warmFrom(); then, once that init ended, a larger one an isolate accepts', async function () {
    isolatesOrSkip(this);
    const lib = loadIsolatedVm() as typeof IsolatedVm;
    const cache = await IsolateCodeCache.prepare(lib, nothingSaved);
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
    const cache = await IsolateCodeCache.prepare(lib, nothingSaved);
    const cold = await cache.next();
    const lost = new lib.Isolate({ memoryLimit: 64 });
    lost.dispose();
    cache.warmFrom({ stop: () => {} }, lost, Promise.resolve());
    assert.equal((await cache.next()).cache, cold.cache);
  });
});

describe('runner/host/isolate-code-cache: the cache kept from one run to the next', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'loadlab-saved-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  const savedIn = (folder: string) => (code: string) => savedCodeCache(code, { LOADLAB_CODE_CACHE: folder });

  it('saves what a VU compiled at its end, once; the next run starts from it and makes no warm cache', async function () {
    isolatesOrSkip(this);
    const lib = loadIsolatedVm() as typeof IsolatedVm;
    const first = await IsolateCodeCache.prepare(lib, savedIn(dir));
    const cold = await first.next();
    const vu = await ranBundle(lib, cold);
    try {
      await first.saveFrom(vu.owner, vu.isolate);
      assert.equal(first.saveFrom(vu.owner, vu.isolate), undefined, 'a second VU saves nothing');
    } finally {
      vu.owner.stop();
    }
    const kept = savedCodeCache(cold.code, { LOADLAB_CODE_CACHE: dir })!.read();
    assert.ok(
      kept && kept.byteLength > bytes(cold.cache),
      `saved ${kept?.byteLength} B, cold ${bytes(cold.cache)} B`,
    );

    const next = await IsolateCodeCache.prepare(lib, savedIn(dir));
    const start = await next.next();
    assert.deepEqual(new Uint8Array(start.cache!.copy()), new Uint8Array(kept));
    const later = await ranBundle(lib, start);
    try {
      assert.equal(next.warmFrom(later.owner, later.isolate, Promise.resolve()), undefined);
    } finally {
      later.owner.stop();
    }
  });

  it('starts cold from a saved cache V8 rejects, and replaces it at the end', async function () {
    isolatesOrSkip(this);
    const lib = loadIsolatedVm() as typeof IsolatedVm;
    const probe = await IsolateCodeCache.prepare(lib, nothingSaved);
    const { code, cache: cold } = await probe.next();
    const saved = savedCodeCache(code, { LOADLAB_CODE_CACHE: dir })!;
    saved.write(new Uint8Array(bytes(cold) + 4096).fill(7)); // whole on disk, but no V8 code cache

    const cache = await IsolateCodeCache.prepare(lib, savedIn(dir));
    const start = await cache.next();
    assert.equal(bytes(start.cache), bytes(cold));
    const vu = await ranBundle(lib, start);
    try {
      await cache.saveFrom(vu.owner, vu.isolate);
    } finally {
      vu.owner.stop();
    }
    const replaced = saved.read()!;
    assert.notEqual(new Uint8Array(replaced)[0], 7);
    const check = new lib.Isolate({ memoryLimit: 64 });
    try {
      const compiled = await check.compileScript(code, {
        filename: ISOLATE_FILENAME,
        cachedData: new lib.ExternalCopy(replaced) as IsolatedVm.ExternalCopy<ArrayBuffer>,
      });
      assert.equal(
        (compiled as IsolatedVm.Script & { cachedDataRejected?: boolean }).cachedDataRejected,
        false,
      );
    } finally {
      check.dispose();
    }
  });

  for (const [host, env] of CACHING_HOSTS)
    it(`${host}: a run's VU compiles none of the iteration's functions when the run before saved its cache (V8's function log)`, async function () {
      if (env === ISOLATE_HOST_ENV) isolatesOrSkip(this);
      const built = await runCommand(process.execPath, [LOADLAB, 'version'], {
        cwd: REPO,
        timeoutMs: 30_000,
      });
      assert.equal(built.code, 0, built.output);
      const target = await startReferenceTarget();
      try {
        // Per isolate of a run (isolated-vm: the throwaway one, VU 0, VU 1; shared: VU 0's, the test
        // VUs'): the bundle's functions it compiled.
        const compiledPerIsolate = async (name: string) => {
          const cwd = join(dir, name); // V8 writes a log per isolate here
          mkdirSync(cwd);
          const r = await runCommand(
            process.execPath,
            [
              '--no-node-snapshot',
              '--log-function-events',
              LOADLAB,
              'run',
              '-q',
              '-e',
              `BASE=${target.url}`,
              SHORT_RUN,
            ],
            { cwd, env: { ...env, LOADLAB_CODE_CACHE: join(dir, 'cache') }, timeoutMs: 30_000 },
          );
          assert.equal(r.code, 0, r.output);
          return readdirSync(cwd)
            .map((log) => bundleCompiles(readFileSync(join(cwd, log), 'latin1')))
            .filter((names) => names !== undefined);
        };
        // The first run: VU 1 compiled the iteration's functions when it first ran them.
        const iterating = (await compiledPerIsolate('first')).find((names) => names.includes('runIteration'));
        assert.ok(iterating && iterating.length > 10, String(iterating));
        const second = await compiledPerIsolate('second');
        assert.ok(second.length >= 2, `${second.length} isolates with the bundle`);
        assert.deepEqual(
          second.flat().filter((name) => iterating.includes(name)),
          [],
        );
      } finally {
        await target.close();
      }
    });
});
