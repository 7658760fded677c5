// The command's modules compiled once per Node (compile-cache.js): a start writes Node's compile cache
// into the temporary folder, where Node has one (22.1 and later).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';

describe('runner/bin: Node compile cache', function () {
  this.timeout(60_000);

  it('`loadlab version` leaves the compiled modules in <tmpdir>/node-compile-cache, unless NODE_DISABLE_COMPILE_CACHE', async function () {
    if (!('enableCompileCache' in module)) {
      console.warn(`      skipped: Node ${process.version} has no compile cache (22.1 and later)`);
      this.skip();
    }
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-compile-cache-'));
    try {
      for (const [name, extra] of [
        ['on', {}],
        ['off', { NODE_DISABLE_COMPILE_CACHE: '1' }],
      ] as const) {
        const folder = join(dir, name);
        const run = await runCommand(process.execPath, [join(REPO, 'bin', 'loadlab.js'), 'version'], {
          env: { PATH: process.env.PATH ?? '', TMPDIR: folder, ...extra },
          timeoutMs: 30_000,
        });
        assert.equal(run.code, 0, run.output);
        const cache = join(folder, 'node-compile-cache');
        const entries = existsSync(cache) ? readdirSync(cache, { recursive: true }).length : 0;
        assert.equal(entries > 0, name === 'on', `${name}: ${entries} entries in ${cache}`);
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
