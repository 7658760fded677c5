// The VU bundle's code cache on disk (saved-code-cache.ts): what is read back is what was written, and
// nothing else: not a damaged file, not a file in a folder others can write, not another bundle's.
import assert from 'node:assert/strict';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KEPT_CACHES, savedCodeCache } from './saved-code-cache.js';

const CODE = 'globalThis.vu = () => 1;';
const bytes = (...values: number[]) => new Uint8Array(values);
const asArray = (buffer: ArrayBuffer | undefined) => (buffer ? [...new Uint8Array(buffer)] : undefined);

describe('runner/host/saved-code-cache', () => {
  let dir: string;
  let folder: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-code-cache-test-'));
    folder = join(dir, 'cache');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const saved = (code = CODE) => savedCodeCache(code, { LOADLAB_CODE_CACHE: folder })!;
  const onlyFile = () => join(folder, readdirSync(folder)[0]!);

  it('reads back what was written, in a folder only its user can open; nothing before', () => {
    assert.equal(saved().read(), undefined);
    saved().write(bytes(1, 2, 3));
    assert.deepEqual(asArray(saved().read()), [1, 2, 3]);
    saved().write(bytes(4, 5));
    assert.deepEqual(asArray(saved().read()), [4, 5]);
    assert.equal(readdirSync(folder).length, 1, 'no partial file left');
    assert.equal(readFileSync(onlyFile()).length, 32 + 2, 'a digest, then the cache');
    assert.equal(statSync(folder).mode & 0o777, 0o700);
  });

  it('keeps one file per bundle: another code reads nothing', () => {
    saved().write(bytes(1));
    assert.equal(saved(`${CODE} `).read(), undefined);
  });

  it('reads nothing from a damaged file (V8 checks a cache header, not its payload)', () => {
    saved().write(bytes(1, 2, 3));
    const file = onlyFile();
    const damaged = readFileSync(file);
    const last = damaged.length - 1;
    damaged.writeUInt8(damaged.readUInt8(last) ^ 0xff, last);
    writeFileSync(file, damaged);
    assert.equal(saved().read(), undefined);
    writeFileSync(file, damaged.subarray(0, 10));
    assert.equal(saved().read(), undefined);
  });

  it('neither reads from nor writes into a folder that other users can write', function () {
    if (!process.getuid) this.skip(); // no owners and modes to check on this system
    saved().write(bytes(1, 2));
    chmodSync(folder, 0o777);
    assert.equal(saved().read(), undefined);
    saved().write(bytes(3));
    chmodSync(folder, 0o700);
    assert.deepEqual(asArray(saved().read()), [1, 2]);
  });

  it(`keeps the ${KEPT_CACHES} newest caches in the folder, and nothing else of it is touched`, () => {
    const base = Date.now() / 1000 - 1000;
    const bundles = Array.from({ length: KEPT_CACHES + 2 }, (_, i) => `globalThis.vu = () => ${i};`);
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(join(folder, 'notes.txt'), 'kept');
    const known = new Set<string>(['notes.txt']);
    bundles.forEach((code, i) => {
      saved(code).write(bytes(i));
      const written = readdirSync(folder).find((name) => !known.has(name))!;
      known.add(written);
      utimesSync(join(folder, written), base + i, base + i); // each older than the next
    });
    assert.deepEqual(
      bundles.map((code) => saved(code).read() !== undefined),
      bundles.map((_, i) => i >= 2),
    );
    assert.ok(readdirSync(folder).includes('notes.txt'));
  });

  it('is off with LOADLAB_CODE_CACHE=off, and in the temporary folder by default', () => {
    assert.equal(savedCodeCache(CODE, { LOADLAB_CODE_CACHE: 'off' }), undefined);
    const tmp = process.env.TMPDIR;
    process.env.TMPDIR = dir; // os.tmpdir() reads it
    try {
      savedCodeCache(CODE, {})!.write(bytes(7));
      assert.equal(readdirSync(join(dir, 'loadlab-code-cache')).length, 1);
      assert.deepEqual(asArray(savedCodeCache(CODE, {})!.read()), [7]);
    } finally {
      if (tmp === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = tmp;
    }
  });
});
