// ES modules with top-level await (esm-to-async.ts) and where errors point (errors.ts,
// thrown-values.ts): the fixtures/esm/ scripts logged line for line and with the same exit code on
// real k6 and on the runner, and the bundle rewrite on its own.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';
import { esmToAsyncBody } from './esm-to-async.js';
import { loadScript } from './load-script.js';
import { writeScript } from '../vu/test-support.js';
import { mayThrowNonErrors, ThrownValues } from '../vu/thrown-values.js';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

const FIXTURES = 'runner/vu/fixtures/esm';

/** One test per fixture: the same log lines and exit code on real k6 and on the runner. */
function sameOnBothEngines(fixtures: readonly (readonly [string, number])[]): void {
  for (const [fixture, status] of fixtures) {
    it(`fixtures/esm/${fixture} logs the same lines and exits ${status} on real k6 and on the runner`, function () {
      const k6 = realK6OrSkip(this);
      this.timeout(60_000);
      const script = `${FIXTURES}/${fixture}`;
      const want = logLines(k6, script, [], status);
      assert.ok(want.length > 0, 'real k6 logged nothing');
      assert.deepEqual(logLines(RUNNER, script, [], status), want);
    });
  }
}

describe('runner/vu top-level await', () => {
  it('rewrites the k6 imports into one line of bindings and the export clause into getters, keeping line numbers', () => {
    const code = [
      '// a.js',
      'import http from "k6/http";',
      'import * as k6 from "k6";',
      'import { check, sleep as nap } from "k6";',
      'import exec, { vu } from "k6/execution";',
      'import enc, * as encoding from "k6/encoding";',
      'import {',
      '  Counter,',
      '  Trend',
      '} from "k6/metrics";',
      'import "k6/crypto";',
      'var x = await 1;',
      'function a_default() {}',
      'export {',
      '  a_default as default,',
      '  x',
      '};',
      '',
    ].join('\n');
    const { prelude, body } = esmToAsyncBody(code);
    assert.equal(body.split('\n').length, code.split('\n').length);
    assert.equal(body.split('\n')[11], 'var x = await 1;');
    assert.doesNotMatch(body, /^(import|export)\b/m);
    const loaded: string[] = [];
    const modules: Record<string, Record<string, unknown>> = {};
    const require = (name: string) => {
      loaded.push(name);
      const mod = { name, check: 'check', sleep: 'sleep', vu: 'vu', Counter: 'Counter', Trend: 'Trend' };
      // One module object per name, as the registry caches them.
      return (modules[name] ??= Object.defineProperty({ ...mod }, 'default', { value: mod }));
    };
    const module = { exports: {} as Record<string, unknown> };
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (
      ...args: string[]
    ) => (...a: unknown[]) => Promise<unknown>;
    const run = new AsyncFunction(
      'require',
      'module',
      `${prelude}${body}; return { http, k6, check, nap, exec, vu, enc, encoding, Counter, Trend };`,
    );
    return run(require, module).then((seen) => {
      assert.deepEqual(loaded, [
        'k6/http',
        'k6',
        'k6',
        'k6/execution',
        'k6/encoding',
        'k6/metrics',
        'k6/crypto',
      ]);
      const s = seen as Record<string, unknown>;
      assert.equal(s.http, modules['k6/http']!.default);
      assert.equal(s.k6, modules.k6);
      assert.deepEqual(
        [s.check, s.nap, s.vu, s.Counter, s.Trend],
        ['check', 'sleep', 'vu', 'Counter', 'Trend'],
      );
      assert.equal(s.exec, modules['k6/execution']!.default);
      assert.equal(s.enc, modules['k6/encoding']!.default);
      assert.equal(s.encoding, modules['k6/encoding']);
      assert.deepEqual(Object.keys(module.exports), ['default', 'x']);
      assert.equal(module.exports.x, 1);
    });
  });

  it('loadScript bundles a script without top-level await as CommonJS and one with it for an async init', async () => {
    const plain = await loadScript(`${FIXTURES}/throw-init.js`);
    assert.equal(plain.topLevelAwait, undefined);
    const tla = await loadScript(`${FIXTURES}/tla.js`);
    assert.match(tla.topLevelAwait?.prelude ?? '', /require\("k6\/http"\)/);
    assert.match(tla.code, /await helper\(first\)/);
    // import.meta is the CommonJS bundle's empty object on this path too, not a SyntaxError.
    const meta = await loadScript(
      writeScript('const m = await Promise.resolve(import.meta);\nexport default function () {}\n'),
    );
    assert.doesNotMatch(meta.code, /import\.meta(?!>)/); // (esbuild names the define in a comment)
  });

  sameOnBothEngines([
    ['tla.js', 0],
    ['tla-reject.js', 107],
    ['tla-reject-value.js', 107],
    ['tla-reject-later.js', 107],
    ['init-unhandled.js', 255],
    ['init-unhandled-value.js', 255],
    ['open-relative.js', 0],
  ]);
});

describe('runner/vu error locations', () => {
  it('a thrown value that is not an Error: the frames of its throw, only for that value', () => {
    const file = path.resolve('thrown-values-check.js');
    const thrown = new ThrownValues(pathToFileURL(file).href, file);
    try {
      const outer = vm.runInThisContext(
        '(function () {\n  function inner() {\n    throw "v";\n  }\n  return () => inner();\n})()',
        {
          filename: file,
        },
      ) as () => void;
      let caught: unknown;
      try {
        outer();
      } catch (err) {
        caught = err;
      }
      assert.equal(caught, 'v');
      const stack = thrown.stackOf(caught) ?? '';
      assert.match(
        stack,
        new RegExp(`^\\(thrown value\\)\\n    at inner \\(${file}:3:5\\)\\n    at ${file}:5:`),
      );
      assert.equal(thrown.stackOf('another value'), undefined);
    } finally {
      thrown.close();
    }
    assert.equal(mayThrowNonErrors('if (a) throw new Error("x");'), false);
    assert.equal(mayThrowNonErrors('catch (e) { throw e; }'), false);
    for (const code of [
      'throw "x";',
      "throw 'x' + n;",
      'throw `a ${b}`;',
      'throw 7;',
      'throw void 0;',
      'throw null;',
    ])
      assert.equal(mayThrowNonErrors(code), true, code);
  });

  // Values that are not Errors thrown in an iteration, setup and init; an async iteration's
  // rejection; errors in TypeScript and in
  // a prebuilt script with its source map in a file or inline.
  sameOnBothEngines([
    ['throw-iteration.js', 0],
    ['throw-setup.js', 107],
    ['throw-init.js', 107],
    ['throw-async.js', 0],
    ['frames.js', 108],
    ['errors.ts', 0],
    ['mapped.js', 0],
    ['mapped-inline.js', 0],
  ]);
});
