// scripts/setup.sh run as bash runs it, on a Debian and on an Ubuntu os-release, with stand-ins for
// dpkg-query, apt-get, apt-cache and npm that record what they were asked and answer from a made-up
// archive: what gets installed, what is named as missing, and whether npm ci still runs.
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../devkit/command.js';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const SETUP = join(ROOT, 'scripts/setup.sh');
const DEBIAN_NAMES = [
  'chromium',
  'influxdb',
  'influxdb-client',
  'postgresql',
  'prometheus',
  'shellcheck',
  'yamllint',
  'g++',
  'make',
  'python3',
];

interface SetupRun {
  status: number | null;
  stderr: string;
  /** Every call of the stand-ins, one line each: `apt-get install ...`, `npm ci ...`. */
  calls: string[];
}

function fakeTools(dir: string): void {
  const tool = (name: string, body: string) => {
    writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  };
  const record = 'echo "$(basename "$0") $*" >> "$FAKE_CALLS"';
  tool('dpkg-query', 'exit 1'); // nothing is installed
  tool('apt-get', record);
  tool('npm', record);
  // `apt-cache show NAME` prints the record of a name of the made-up archive, as the real one does.
  tool(
    'apt-cache',
    `${record}\nname=\${!#}\nfor p in $FAKE_ARCHIVE; do [[ $p == "$name" ]] && { echo "Package: $name"; exit 0; }; done\nexit 100`,
  );
}

async function runSetup(distribution: string, archive: string[]): Promise<SetupRun> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-setup-'));
  try {
    fakeTools(dir);
    writeFileSync(join(dir, 'os-release'), `NAME="Test"\nID=${distribution}\n`);
    const calls = join(dir, 'calls');
    writeFileSync(calls, '');
    const result = await runCommand('bash', [SETUP], {
      cwd: process.cwd(),
      env: {
        ...process.env,
        PATH: `${dir}:${process.env.PATH}`,
        LOADLAB_OS_RELEASE: join(dir, 'os-release'),
        FAKE_CALLS: calls,
        FAKE_ARCHIVE: archive.join(' '),
      },
    });
    return {
      status: result.code,
      stderr: result.stderr,
      calls: readFileSync(calls, 'utf8').split('\n').filter(Boolean),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const installs = (run: SetupRun) => run.calls.filter((c) => c.startsWith('apt-get install'));

describe('scripts/setup.sh on a fresh machine (stand-in package tools)', () => {
  it('Debian: installs every package by its Debian name, then the npm packages', async () => {
    const run = await runSetup('debian', DEBIAN_NAMES);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(installs(run), [
      `apt-get install -y -qq --no-install-recommends ${DEBIAN_NAMES.join(' ')}`,
    ]);
    assert.equal(run.calls.at(-1), 'npm ci --no-fund --no-audit');
  });

  it('Debian: a name the archive lacks stops setup with one line naming it, before installing anything', async () => {
    const run = await runSetup(
      'debian',
      DEBIAN_NAMES.filter((p) => p !== 'influxdb-client'),
    );
    assert.equal(run.status, 1);
    assert.deepEqual(installs(run), []);
    assert.ok(!run.calls.some((c) => c.startsWith('npm')), run.calls.join('\n'));
    assert.match(
      run.stderr.trim(),
      /^setup: Debian's archive here has no influxdb-client; check the apt sources/,
    );
  });

  it('Ubuntu: never asks for chromium (a snap shim); names what its archive lacks and installs the rest', async () => {
    const run = await runSetup('ubuntu', ['influxdb', 'shellcheck', 'yamllint']);
    assert.equal(run.status, 0, run.stderr);
    assert.ok(!run.calls.some((c) => / chromium\b/.test(c)), run.calls.join('\n'));
    assert.deepEqual(installs(run), [
      'apt-get install -y -qq --no-install-recommends influxdb shellcheck yamllint',
    ]);
    assert.match(
      run.stderr,
      /^setup: ubuntu's archive has no influxdb-client postgresql prometheus g\+\+ make python3; /m,
    );
    assert.equal(run.calls.at(-1), 'npm ci --no-fund --no-audit');
  });

  it('another distribution: says which packages to install by hand, and still installs the npm packages', async () => {
    const run = await runSetup('fedora', DEBIAN_NAMES);
    assert.equal(run.status, 0, run.stderr);
    assert.deepEqual(installs(run), []);
    assert.match(run.stderr, /^setup: fedora is neither Debian nor Ubuntu; install chromium influxdb/m);
    assert.deepEqual(run.calls, ['npm ci --no-fund --no-audit']);
  });
});
