import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { desktopOpener } from '../report/open.js';
import { runScript } from '../devkit/command.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');

async function open(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  const { code, stdout, stderr } = await runScript('scripts/report-open.ts', args, { cwd: ROOT, env });
  return { code: code ?? 1, stdout, stderr };
}

describe('report:open', function () {
  this.timeout(20_000);
  const headless = { ...process.env, DISPLAY: '', WAYLAND_DISPLAY: '' };

  it('uses a desktop opener only where a desktop exists', () => {
    assert.equal(desktopOpener({ DISPLAY: ':0' }, 'linux'), 'xdg-open');
    assert.equal(desktopOpener({}, 'linux'), undefined);
    assert.equal(desktopOpener({ DISPLAY: ':0', CI: 'true' }, 'linux'), undefined);
    assert.equal(desktopOpener({}, 'darwin'), 'open');
  });

  it('prints the path without a desktop, and says when there is no report', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'loadlab-open-'));
    try {
      const file = join(dir, 'index.html');
      await writeFile(file, '<!doctype html>');
      const ok = await open([file], headless);
      assert.equal(ok.code, 0);
      assert.equal(ok.stdout.trim(), file);
      const missing = await open([join(dir, 'none.html')], headless);
      assert.equal(missing.code, 1);
      assert.match(missing.stderr, /none\.html does not exist; run npm run test:report/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
