// k6 modules the runner does not serve stop the run before any VU with one line and exit 107: k6's own
// line for names k6 refuses too (compared with the real k6), and for the modules it lacks, the module's
// name and the way to real k6.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realK6OrSkip, RUNNER } from '../../testing/log-lines.js';
import { runCommand } from '../../../devkit/command.js';
import { REPO } from '../../../devkit/loadlab-run.js';
import { NOT_IMPLEMENTED_MODULES } from './names.js';

async function runImporting(
  command: string[],
  name: string,
): Promise<{ code: number | null; errors: string[] }> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-modules-'));
  try {
    const script = join(dir, 'script.js');
    writeFileSync(script, `import * as m from '${name}';\nexport default function () { console.log(m); }\n`);
    const run = await runCommand(command[0]!, [...command.slice(1), 'run', '-q', script], {
      cwd: REPO,
      env: { HOME: process.env.HOME ?? '/tmp' },
    });
    const errors = run.stderr
      .split('\n')
      .filter((line) => line.includes('level=error'))
      .map((line) => line.replace(/^time="[^"]*" /, ''));
    return { code: run.code, errors };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runner/modules names the runner does not serve', function () {
  this.timeout(60_000);

  it('each module k6 has and the runner lacks: one line naming it and real k6, exit 107', async () => {
    for (const name of NOT_IMPLEMENTED_MODULES) {
      const { code, errors } = await runImporting(RUNNER, name);
      assert.equal(code, 107, name);
      assert.equal(errors.length, 1, errors.join('\n'));
      assert.ok(
        errors[0]!.includes(
          `GoError: ${name} is a k6 module the Node runner does not implement: run this script on real k6`,
        ),
        errors[0],
      );
    }
  });

  it("unknown, graduated and removed names: k6's own line and exit code", async function () {
    const k6 = realK6OrSkip(this);
    for (const name of [
      'k6/nosuch',
      'k6/experimental/webcrypto',
      'k6/experimental/tracing',
      'k6/experimental/browser',
      'k6/experimental/grpc',
    ]) {
      const expected = await runImporting(k6, name);
      assert.equal(expected.code, 107, name);
      assert.deepEqual(await runImporting(RUNNER, name), expected, name);
    }
  });
});
