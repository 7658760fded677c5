// What Node does for a short run besides the run: work that outlives the run's last line delays the
// exit, since Node waits for V8's background jobs before a process that ends by itself is gone.
// Both cases held a 1-VU run's exit for 50-150 ms after its summary: V8 optimising the CommonJS
// lexer that Node's ES module loader ran over esbuild (load-script.ts), and V8 optimising undici's
// WebAssembly parser after the HTTP warm-up's two responses (http-engine.ts). The test reads what
// the engines decided (modules loaded, V8's compile trace), not how long they took.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { REPO, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { runCommand } from '../../devkit/command.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');
const LOADLAB = join(REPO, 'bin', 'loadlab.js');

describe('runner/host: a short run leaves no background work to the exit', function () {
  this.timeout(60_000);

  it("20 requests: esbuild is not lexed by Node's ES module loader, and undici's parser stays in V8's baseline tier", async function () {
    // A first run after an edit builds the compiled runner (bin/compiled-runner.js), with esbuild.
    const built = await runCommand(process.execPath, [LOADLAB, 'version'], { cwd: REPO, timeoutMs: 30_000 });
    assert.equal(built.code, 0, built.output);
    const target = await startReferenceTarget();
    try {
      const r = await runCommand(
        process.execPath,
        [
          '--import',
          join(FIXTURES, 'report-cjs-lexer.mjs'),
          '--trace-wasm-compilation-times',
          LOADLAB,
          'run',
          '-q',
          '-e',
          `BASE=${target.url}`,
          join(FIXTURES, 'short-run.js'),
        ],
        { cwd: REPO, timeoutMs: 30_000 },
      );
      assert.equal(r.code, 0, r.output);
      assert.match(r.stdout, /http_reqs\.*: 20\b/);
      assert.match(r.stderr, /^cjs-module-lexer: not loaded$/m);
      const compiled = r.stdout.split('\n').filter((line) => line.startsWith('Compiled function'));
      // The trace works: llhttp's functions were compiled, by Liftoff, V8's baseline compiler.
      assert.ok(
        compiled.some((line) => / using Liftoff/.test(line)),
        r.stdout,
      );
      assert.deepEqual(
        compiled.filter((line) => / using TurboFan/.test(line)),
        [],
      );
    } finally {
      await target.close();
    }
  });
});
