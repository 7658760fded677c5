// The stack's files through the linters a reviewer would run: shellcheck on every shell script,
// yamllint on every YAML file, promtool on the Prometheus configuration.
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { hasTool, runTool } from './tools.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string, suffixes: string[]): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && suffixes.some((s) => entry.name.endsWith(s)))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

function requireTool(context: Mocha.Context, command: string): void {
  if (!hasTool(command)) {
    console.warn(`      skipped: ${command} is not installed (./scripts/setup.sh installs it)`);
    context.skip();
  }
}

describe('stack linters', () => {
  it('shellcheck passes on every shell script of the stack', function () {
    requireTool(this, 'shellcheck');
    const scripts = filesUnder('stack', ['.sh']);
    assert.ok(scripts.length >= 3, `found ${scripts.join(', ')}`);
    const result = runTool('shellcheck', ['--severity=style', ...scripts.map((s) => join(ROOT, s))]);
    assert.equal(result.status, 0, result.output);
  });

  it('yamllint passes on the compose, Prometheus and provisioning files', function () {
    requireTool(this, 'yamllint');
    const files = [
      ...filesUnder('stack', ['.yml', '.yaml']),
      ...filesUnder('provisioning', ['.yml', '.yaml']),
    ];
    assert.ok(files.includes('stack/docker-compose.yml') && files.length >= 4, `found ${files.join(', ')}`);
    const result = runTool('yamllint', [
      '-s',
      '-c',
      join(ROOT, 'stack/.yamllint.yml'),
      ...files.map((f) => join(ROOT, f)),
    ]);
    assert.equal(result.status, 0, result.output);
  });

  it('promtool accepts stack/prometheus.yml', function () {
    requireTool(this, 'promtool');
    const result = runTool('promtool', ['check', 'config', join(ROOT, 'stack/prometheus.yml')]);
    assert.equal(result.status, 0, result.output);
    assert.match(result.output, /SUCCESS/);
  });
});
