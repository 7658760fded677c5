// The stack's files through the linters a reviewer would run: shellcheck on every shell script,
// yamllint on every YAML file, promtool on the Prometheus configuration.
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath, runCommand } from '../devkit/command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

function filesUnder(dir: string, suffixes: string[]): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && suffixes.some((s) => entry.name.endsWith(s)))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)));
}

function requireTool(context: Mocha.Context, command: string): void {
  if (!onPath(command)) {
    console.warn(`      skipped: ${command} is not installed (./scripts/setup.sh installs it)`);
    context.skip();
  }
}

/** A linter's verdict: its exit code and what it wrote (stdout and stderr as they came). */
async function lint(command: string, args: string[]): Promise<{ code: number | null; output: string }> {
  const { code, output } = await runCommand(command, args, { env: { HOME: process.env.HOME ?? '/tmp' } });
  return { code, output: output.trim() };
}

/** Every tracked file that is a shell script: `*.sh`, or a bash/sh shebang (.ci/run). */
async function shellScripts(): Promise<string[]> {
  const listed = await runCommand('git', ['ls-files'], { cwd: ROOT, env: { ...process.env } });
  const tracked = listed.stdout.split('\n');
  return tracked.filter(
    (file) =>
      file &&
      (file.endsWith('.sh') ||
        /^#!.*\b(ba)?sh\b/.test(readFileSync(join(ROOT, file), 'utf8').split('\n', 1)[0]!)),
  );
}

/** `"${name[@]}"` outside the `${name[@]+...}` guard, in scripts that `set -u`. */
function bareArrayExpansions(
  files: string[],
  read = (f: string) => readFileSync(join(ROOT, f), 'utf8'),
): string[] {
  const found: string[] = [];
  for (const file of files) {
    const text = read(file);
    if (!/^set -[a-z]*u/m.test(text)) continue;
    text.split('\n').forEach((line, index) => {
      const unguarded = line.replace(/\$\{(\w+)\[@\]\+"\$\{\1\[@\]\}"\}/g, '');
      for (const match of unguarded.matchAll(/"\$\{(\w+)\[@\]\}"/g)) {
        // Arrays filled by a literal with members on the same declaration line are never empty.
        if (new RegExp(`^\\s*${match[1]}=\\([^)\\s]`, 'm').test(text)) continue;
        found.push(`${file}:${index + 1} ${match[0]}`);
      }
    });
  }
  return found;
}

describe('stack linters', () => {
  it('shellcheck passes on every shell script of the repository', async function () {
    requireTool(this, 'shellcheck');
    const scripts = await shellScripts();
    assert.ok(
      scripts.includes('scripts/setup.sh') && scripts.includes('.ci/run'),
      `found ${scripts.join(', ')}`,
    );
    // -x follows the `source` lines, from the repository root as the scripts cd there.
    const result = await lint('shellcheck', [
      '-x',
      '-P',
      ROOT,
      '--severity=style',
      ...scripts.map((s) => join(ROOT, s)),
    ]);
    assert.equal(result.code, 0, result.output);
  });

  it("no bash script expands a possibly empty array bare: macOS's bash 3.2 with set -u calls it unbound", async () => {
    const offending = bareArrayExpansions(await shellScripts());
    assert.deepEqual(offending, [], 'write ${a[@]+"${a[@]}"} instead');
    // A literal `(` after =~ is a syntax error in bash 3.2 (the pattern goes in a variable).
    const regexLiterals = (await shellScripts()).flatMap((file) =>
      readFileSync(join(ROOT, file), 'utf8')
        .split('\n')
        .flatMap((line, i) => (/=~\s+[^$\s]\S*\(/.test(line) ? [`${file}:${i + 1}`] : [])),
    );
    assert.deepEqual(regexLiterals, [], 'put the =~ pattern in a variable');
    // The rule itself finds what bash 3.2 stops on.
    assert.deepEqual(
      bareArrayExpansions(['x'], () => 'set -u\nargs=()\ndocker "${args[@]}" run\n'),
      ['x:3 "${args[@]}"'],
    );
  });

  it('yamllint passes on the compose, Prometheus and provisioning files', async function () {
    requireTool(this, 'yamllint');
    const files = [
      ...filesUnder('stack', ['.yml', '.yaml']),
      ...filesUnder('provisioning', ['.yml', '.yaml']),
    ];
    assert.ok(files.includes('stack/docker-compose.yml') && files.length >= 4, `found ${files.join(', ')}`);
    const result = await lint('yamllint', [
      '-s',
      '-c',
      join(ROOT, 'stack/.yamllint.yml'),
      ...files.map((f) => join(ROOT, f)),
    ]);
    assert.equal(result.code, 0, result.output);
  });

  it('promtool accepts stack/prometheus.yml', async function () {
    requireTool(this, 'promtool');
    const result = await lint('promtool', ['check', 'config', join(ROOT, 'stack/prometheus.yml')]);
    assert.equal(result.code, 0, result.output);
    assert.match(result.output, /SUCCESS/);
  });
});

describe('scripts/setup.sh package names', () => {
  const setup = readFileSync(join(ROOT, 'scripts/setup.sh'), 'utf8');
  const list = (name: string) =>
    /\((.*)\)/.exec(setup.split('\n').find((l) => l.startsWith(`${name}=(`)) ?? '')?.[1]?.split(/\s+/) ?? [];

  it('Ubuntu gets the Debian names less chromium (a snap shim on Ubuntu)', () => {
    const debian = list('debian_packages');
    assert.ok(debian.includes('chromium') && debian.length >= 6, debian.join(' '));
    assert.deepEqual(
      list('ubuntu_packages'),
      debian.filter((p) => p !== 'chromium'),
    );
  });

  it('every Debian name is a real package of this Debian machine (apt-cache, not a virtual name)', async function () {
    const osRelease = readFileSync('/etc/os-release', 'utf8');
    if (!/^ID=debian$/m.test(osRelease) || !onPath('apt-cache')) {
      console.warn('      skipped: not a Debian machine with apt-cache');
      this.skip();
    }
    // One apt-cache for all of them: under load each call took seconds.
    const packages = list('debian_packages');
    const shown = await lint('apt-cache', ['show', '--no-all-versions', ...packages]);
    assert.equal(
      shown.code,
      0,
      shown.output
        .split('\n')
        .filter((l) => l.startsWith('E:'))
        .join('\n'),
    );
    // g++: a name with regular-expression characters.
    for (const pkg of packages)
      assert.match(
        shown.output,
        new RegExp(`^Package: ${pkg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'),
        pkg,
      );
  });
});
