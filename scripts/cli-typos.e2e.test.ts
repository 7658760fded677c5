// A mistyped option must stop a command with one usage line and exit 2, never be ignored: `lab`
// would otherwise start its 4-minute run and `slides` would serve without doing what was asked.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function tsx(script: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', script, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: r.status, stderr: r.stderr.trim() };
}

describe('command-line typos', () => {
  it('npm run lab -- --quik refuses before touching .env or starting anything', () => {
    const r = tsx('scripts/lab.ts', ['--quik']);
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.split('\n'), [
      "lab: Unknown option '--quik'",
      'usage: npm run lab [-- --quick] [--show-secrets]',
    ]);
  });

  it('npm run slides -- --opn refuses instead of serving', () => {
    const r = tsx('scripts/docs-server.ts', ['slides', '--opn']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^usage: docs-server\.ts slides\|docs \[--open\]/);
  });
});
