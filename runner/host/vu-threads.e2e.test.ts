import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRunArgs } from '../cli/args.js';
import { EXIT, runTest } from '../run/run.js';
import { closeWarmVuThreads, warmVuThreadCount, warmVuThreads } from './vu-threads.js';
import { ctx, makeVu, vuSuite, type Harness } from '../vu/test-support.js';

/** The Node built-ins a VU's thread has loaded, as its script sees them (process.moduleLoadList). */
const LOADED = `export default function () {
  console.log(JSON.stringify(process.moduleLoadList.filter((m) => /^NativeModule (crypto|stream\\/web|inspector|internal\\/crypto\\/webcrypto)$/.test(m))));
}`;

describe('runner/host/vu-threads: VU threads started ahead of their VU', function () {
  const suite = vuSuite();
  async function vuFor(code: string): Promise<Harness> {
    const h = await makeVu(code, { env: { BASE: suite.target.base } });
    suite.open.push(h);
    return h;
  }
  afterEach(() => closeWarmVuThreads());

  it('a VU takes a warm thread, which then runs its init and iterations', async () => {
    warmVuThreads(2);
    assert.equal(warmVuThreadCount(), 2);
    const h = await vuFor(`import http from 'k6/http';
      export const options = { vus: 3 };
      export default function () { if (http.get(__ENV.BASE + '/json').status !== 200) throw new Error('no answer'); }`);
    assert.equal(warmVuThreadCount(), 1);
    assert.deepEqual((await h.vu.init()).options, { vus: 3 });
    assert.deepEqual(await h.vu.iterate('default', undefined, ctx()), { completed: true });
    await closeWarmVuThreads();
    assert.equal(warmVuThreadCount(), 0);
  });

  it('a VU made with no warm thread left starts its own', async () => {
    assert.equal(warmVuThreadCount(), 0);
    const h = await vuFor(`export default function () {}`);
    await h.vu.init();
    assert.deepEqual(await h.vu.iterate('default', undefined, ctx()), { completed: true });
  });

  it('loads node:crypto, node:stream/web, node:inspector and WebCrypto only for a script that uses them', async () => {
    const plain = await vuFor(LOADED);
    await plain.vu.init();
    await plain.vu.iterate('default', undefined, ctx());
    assert.deepEqual(JSON.parse(plain.logs.at(-1)!.message), []);

    const using = await vuFor(`import crypto from 'k6/crypto';
      import { ReadableStream } from 'k6/experimental/streams';
      const digest = crypto.sha256('x', 'hex');
      const key = globalThis.crypto.subtle;
      const stream = new ReadableStream();
      ${LOADED}`);
    await using.vu.init();
    await using.vu.iterate('default', undefined, ctx());
    assert.deepEqual(JSON.parse(using.logs.at(-1)!.message).sort(), [
      'NativeModule crypto',
      'NativeModule internal/crypto/webcrypto',
      'NativeModule stream/web',
    ]);
  });

  it('close() twice is one close: both wait for the same thread and agent to end', async () => {
    const h = await vuFor(`export default function () {}`);
    await h.vu.init();
    const first = h.vu.close();
    assert.equal(h.vu.close(), first);
    await first;
    await assert.rejects(h.vu.iterate('default', undefined, ctx()), /closed/);
  });
});

describe('runner/run: a run that ends before its VUs leaves no warm thread behind', () => {
  it('an options error (exit 104) ends the two threads warmed for VU 0 and VU 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-warm-'));
    try {
      const script = join(dir, 'bad-options.js');
      writeFileSync(
        script,
        "export const options = { scenarios: { a: { executor: 'nope' } } };\nexport default function () {}\n",
      );
      const lines: string[] = [];
      const io = { out: () => {}, err: (t: string) => void lines.push(t), isTTY: false };
      const code = await runTest(parseRunArgs([script, '-q']), io, {});
      assert.equal(code, EXIT.invalidConfig, lines.join(''));
      assert.equal(warmVuThreadCount(), 0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
