// The VU isolates' code cache kept from one run to the next (saved-code-cache.ts), seen in V8's own
// function log: a VU of the run after one that saved it compiles none of what an iteration runs.
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, startReferenceTarget } from '../../devkit/loadlab-run.js';
import { runCommand } from '../../devkit/command.js';
import { ISOLATE_FILENAME } from '../vu/isolate-code.js';
import { SHARED_HOST_ENV } from '../testing/vu-isolates.js';

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

describe('runner/host/saved-code-cache: the cache kept from one run to the next', function () {
  this.timeout(60_000);
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'loadlab-saved-cache-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("a run's VU compiles none of the iteration's functions when the run before saved its cache (V8's function log)", async function () {
    const built = await runCommand(process.execPath, [LOADLAB, 'version'], { cwd: REPO, timeoutMs: 30_000 });
    assert.equal(built.code, 0, built.output);
    const target = await startReferenceTarget();
    try {
      // Per isolate of a run (VU 0's, the test VUs'): the bundle's functions it compiled.
      const compiledPerIsolate = async (name: string) => {
        const cwd = join(dir, name); // V8 writes a log per isolate here
        mkdirSync(cwd);
        const r = await runCommand(
          process.execPath,
          ['--log-function-events', LOADLAB, 'run', '-q', '-e', `BASE=${target.url}`, SHORT_RUN],
          { cwd, env: { ...SHARED_HOST_ENV, LOADLAB_CODE_CACHE: join(dir, 'cache') }, timeoutMs: 30_000 },
        );
        assert.equal(r.code, 0, r.output);
        return readdirSync(cwd)
          .map((log) => bundleCompiles(readFileSync(join(cwd, log), 'latin1')))
          .filter((names) => names !== undefined);
      };
      // The first run: a test VU compiled the iteration's functions when it first ran them.
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
