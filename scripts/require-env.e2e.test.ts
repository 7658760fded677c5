// The command behind stack/native/stream.sh's check (its missing-variable cases are held there, through
// the script): asked about nothing it says how to ask, and a set variable lets the caller go on.
import assert from 'node:assert/strict';
import { runScript } from '../devkit/command.js';

describe('scripts/require-env.ts', function () {
  this.timeout(30_000);

  it('exits 2 with one line that says how to ask when no name is given', async () => {
    const result = await runScript('scripts/require-env.ts', []);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^require-env: name the variables to check, e\.g\. .*\n?$/);
    assert.equal(result.stderr.trim().split('\n').length, 1, result.stderr);
  });

  it('exits 0 and says nothing when every named variable is set', async () => {
    const env = { ...process.env, LOADLAB_REQUIRE_ENV_PROBE: 'set' };
    const result = await runScript('scripts/require-env.ts', ['LOADLAB_REQUIRE_ENV_PROBE'], { env });
    assert.deepEqual([result.code, result.stderr], [0, '']);
  });

  it('exits 2 naming a variable left as a <placeholder>', async () => {
    const env = { ...process.env, LOADLAB_REQUIRE_ENV_PROBE: '<token>' };
    const result = await runScript('scripts/require-env.ts', ['LOADLAB_REQUIRE_ENV_PROBE'], { env });
    assert.equal(result.code, 2);
    assert.match(result.stderr, /^require-env: missing LOADLAB_REQUIRE_ENV_PROBE \(/);
  });
});
