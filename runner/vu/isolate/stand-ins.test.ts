// The isolate's stand-ins for Node's modules (node-path, node-url, node-module's SourceMap, node-vm),
// held to Node's own on the inputs the VU's code gives them and their edges: the VU code that calls
// them runs unchanged in a worker (Node's) and in an isolate (these).
import assert from 'node:assert/strict';
import nodeModule from 'node:module';
import nodePath from 'node:path';
import * as nodeUrl from 'node:url';
import { encode, type SourceMapMappings } from '@jridgewell/sourcemap-codec';
import { ISOLATE_HOST_GLOBAL } from '../../bridge/isolate-api.js';
import { takeHost } from './host.js';
import path from './node-path.js';
import { SourceMap } from './node-module.js';
import { fileURLToPath, pathToFileURL } from './node-url.js';
import { runInThisContext } from './node-vm.js';

const PATHS = [
  '',
  '.',
  '..',
  '/',
  '//',
  'a',
  'a/',
  '/a/b/c',
  '/a/b/c/',
  'a/./b/../c',
  '../../x/y.ts',
  '/a/../../b',
  '/a//b///c.js',
  'dir/file.tar.gz',
  '.hidden',
  'dir/.hidden',
  '/a/b/..',
  'x/y/../../..',
  '...',
  '..x',
  'a.',
  'a..b',
];

const position = (entry: object) => {
  const { generatedLine, generatedColumn, originalSource, originalLine, originalColumn } = entry as Record<
    string,
    unknown
  >;
  return { generatedLine, generatedColumn, originalSource, originalLine, originalColumn };
};

describe('runner/vu/isolate: stand-ins for Node modules, held to Node', () => {
  before(() => {
    (globalThis as Record<string, unknown>)[ISOLATE_HOST_GLOBAL] = { cwd: process.cwd() };
    takeHost({ command: () => Promise.resolve(), event: () => undefined, rejection: () => undefined });
  });

  it("node-path: normalize, join, resolve, dirname, basename, extname, relative, isAbsolute as Node's posix", () => {
    const posix = nodePath.posix;
    for (const p of PATHS) {
      assert.equal(
        path.normalize(p === '' ? '.' : p),
        posix.normalize(p === '' ? '.' : p),
        `normalize(${p})`,
      );
      assert.equal(path.dirname(p), posix.dirname(p), `dirname(${p})`);
      assert.equal(path.basename(p), posix.basename(p), `basename(${p})`);
      assert.equal(path.extname(p), posix.extname(p), `extname(${p})`);
      assert.equal(path.isAbsolute(p), posix.isAbsolute(p), `isAbsolute(${p})`);
      assert.equal(path.resolve(p), posix.resolve(p), `resolve(${p})`);
      for (const q of ['b', '/root/x', '../up', '']) {
        assert.equal(path.join(p, q), posix.join(p, q), `join(${p}, ${q})`);
        assert.equal(path.resolve(p, q), posix.resolve(p, q), `resolve(${p}, ${q})`);
        assert.equal(
          path.relative(p || '.', q || '.'),
          posix.relative(p || '.', q || '.'),
          `relative(${p}, ${q})`,
        );
      }
    }
    assert.equal(path.basename('/a/b.js', '.js'), posix.basename('/a/b.js', '.js'));
    assert.equal(path.basename('/a/.js', '.js'), posix.basename('/a/.js', '.js'));
  });

  it("node-url: pathToFileURL and fileURLToPath as Node's, for names a script's folder may have", () => {
    for (const p of [
      '/a/b.js',
      '/with space/x.js',
      '/per%cent/#hash?q',
      '/ünï/çødé.ts',
      '/tab\there/new\nline',
      '/b\\s',
      '/work/main/scenarios/smoke-1_2.test.js',
      // Every printable ASCII character once, inside a name: the plain path's shortcut and the escapes.
      ...Array.from({ length: 0x5f }, (_, i) => `/x${String.fromCharCode(0x20 + i)}y/z.js`),
    ]) {
      const ours = pathToFileURL(p).href;
      assert.equal(ours, nodeUrl.pathToFileURL(p).href, p);
      assert.equal(fileURLToPath(ours), nodeUrl.fileURLToPath(ours), ours);
      assert.equal(fileURLToPath({ href: ours }), p);
    }
    assert.throws(() => fileURLToPath('http://x/y'), /must be of scheme file/);
  });

  // What script/errors.ts reads of an entry: the original source, line and column (Node also carries
  // a name over to a later segment that has none; nothing here reads names).
  it("node-module: SourceMap.findEntry's original position as Node's, at and between every mapping, before the first and past the last", () => {
    const mappings: SourceMapMappings = [
      [],
      [
        [0, 0, 0, 0],
        [4, 0, 0, 7, 0],
        [9, 1, 3, 2],
      ],
      [],
      [
        [2, 1, 5, 0, 1],
        [30, 0, 9, 4],
      ],
    ];
    const payload = {
      version: 3,
      sources: ['a.ts', 'b.ts'],
      names: ['one', 'two'],
      mappings: encode(mappings),
    };
    const ours = new SourceMap(payload);
    const node = new nodeModule.SourceMap(payload as unknown as nodeModule.SourceMapPayload);
    for (let line = 0; line < 6; line++)
      for (let column = 0; column < 40; column++)
        assert.deepEqual(
          position(ours.findEntry(line, column)),
          position(node.findEntry(line, column)),
          `${line}:${column}`,
        );
  });

  it('node-vm: runInThisContext names the code by its filename in stack frames', () => {
    const error = runInThisContext('(() => new Error("here"))()', {
      filename: 'file:///s/script.js',
    }) as Error;
    assert.match(error.stack ?? '', /file:\/\/\/s\/script\.js:1:\d+/);
  });
});
