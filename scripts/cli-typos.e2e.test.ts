// A mistyped option must stop a command with one usage line and exit 2, never be ignored: `lab`
// would otherwise start its 4-minute run and `slides` would serve without doing what was asked.
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runScript } from '../devkit/command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

async function tsx(script: string, args: string[]) {
  const r = await runScript(script, args, { cwd: ROOT, env: { ...process.env }, timeoutMs: 20_000 });
  return { status: r.code, stderr: r.stderr.trim() };
}

describe('command-line typos', () => {
  it('npm run lab -- --quik refuses before touching .env or starting anything', async () => {
    const r = await tsx('scripts/lab.ts', ['--quik']);
    assert.equal(r.status, 2);
    assert.deepEqual(r.stderr.split('\n'), [
      "lab: Unknown option '--quik'",
      'usage: npm run lab [-- --quick] [--show-secrets]',
    ]);
  });

  it('npm run slides -- --opn refuses instead of serving', async () => {
    const r = await tsx('scripts/docs-server.ts', ['slides', '--opn']);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^usage: docs-server\.ts slides\|docs \[--open\]/);
  });
});
