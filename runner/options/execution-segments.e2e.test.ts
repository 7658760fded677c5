// k6-operator starts k6 with --execution-segment on every pod; the Node runner cannot run a slice of a
// test, so it must refuse in one line with k6's invalid-options exit code instead of running it all.
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';

describe('loadlab run with execution segments', function () {
  this.timeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-segments-'));
  const script = join(dir, 'script.js');
  // Would fail loudly (exit 107) if the runner ran it instead of refusing.
  writeFileSync(script, `export default function () { throw new Error('the test ran'); }\n`);

  for (const args of [
    ['--execution-segment', '0:1/2'],
    ['--execution-segment=1/2:1', '--execution-segment-sequence=0,1/2,1'],
  ]) {
    it(`refuses ${args.join(' ')}: one line, exit 104, nothing run`, async () => {
      const result = await runLoadlab([script, '-i', '1', ...args]);
      assert.equal(result.code, 104, result.stderr);
      const lines = result.stderr.split('\n').filter(Boolean);
      assert.equal(lines.length, 1, result.stderr);
      assert.match(
        lines[0]!,
        /level=error msg=".*execution segments .* not supported by the loadlab Node runner/,
      );
      assert.doesNotMatch(result.stdout + result.stderr, /the test ran/);
    });
  }

  it('refuses K6_EXECUTION_SEGMENT in the environment the same way', async () => {
    const result = await runLoadlab([script, '-i', '1'], { env: { K6_EXECUTION_SEGMENT: '0:1/2' } });
    assert.equal(result.code, 104, result.stderr);
    assert.equal(result.stderr.split('\n').filter(Boolean).length, 1, result.stderr);
  });
});
