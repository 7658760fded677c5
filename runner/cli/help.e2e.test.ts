// `loadlab --help`, `loadlab run --help` and `loadlab version` answer as k6's do (exit 0, k6's
// sections in k6's order, k6's flag names and types), held against the real k6 when there is one.
import assert from 'node:assert/strict';
import { parseRunArgs } from './args.js';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';
import { NO_REAL_K6, realK6 } from '../../devkit/real-k6.js';

/** Both commands inherit the test runner's environment, in the repository. */
const INHERITED = { cwd: REPO, env: { ...process.env } };

async function loadlab(...args: string[]) {
  const r = await runCommand(process.execPath, [`${REPO}bin/loadlab.js`, ...args], INHERITED);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

async function k6(...args: string[]) {
  const r = await runCommand(realK6()!, args, INHERITED);
  return { code: r.code, out: r.stdout, err: r.stderr };
}

/** Cobra's section headings ("Usage:", "Flags:", ...), in order. */
const headings = (help: string) => help.split('\n').filter((l) => /^[A-Z][A-Za-z ]*:$/.test(l));

/** Each flag line's names and value type: `-u, --vus int`, `--no-color`. */
function flagColumns(help: string): Map<string, string> {
  const flags = new Map<string, string>();
  for (const line of help.split('\n')) {
    const m = /^ {2}(?:(-\w), )? *(--[\w-]+)(?: ([\w=[\]".]+))?(?: {2,}|$)/.exec(line);
    if (m) flags.set(m[2]!, `${m[1] ?? ''} ${m[2]} ${m[3] ?? ''}`.trim());
  }
  return flags;
}

describe('loadlab help and version, as k6', () => {
  it('loadlab, loadlab --help and loadlab help print the command list and exit 0', async () => {
    for (const args of [[], ['--help'], ['-h'], ['help']]) {
      const r = await loadlab(...args);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(headings(r.out), ['Usage:', 'Available Commands:', 'Flags:']);
      assert.match(r.out, /^ {2}run {9}Start a test$/m);
    }
  });

  it('loadlab run --help (and help run) lists the run flags and exits 0, even with a script named', async () => {
    for (const args of [
      ['run', '--help'],
      ['run', 'script.js', '-h'],
      ['help', 'run'],
    ]) {
      const r = await loadlab(...args);
      assert.equal(r.code, 0, r.err);
      assert.deepEqual(headings(r.out), ['Usage:', 'Examples:', 'Flags:', 'Global Flags:']);
    }
  });

  it('every flag the run help lists is one the runner accepts', async () => {
    for (const [long, column] of flagColumns((await loadlab('run', '--help')).out)) {
      if (long === '--help') continue;
      const takesValue = column.split(' ').length > (column.startsWith('-') && column[1] !== '-' ? 2 : 1);
      const value =
        long === '--summary-mode'
          ? 'full'
          : long === '--env' || long === '--tag'
            ? 'a=b'
            : column.endsWith(' duration')
              ? '1s'
              : column.endsWith(' ip range')
                ? '10.0.0.0/8'
                : column.endsWith(' pattern')
                  ? 'a.test'
                  : '1';
      assert.doesNotThrow(() => parseRunArgs(['x.js', long, ...(takesValue ? [value] : [])]), long);
    }
  });

  it('loadlab version and --version print one line as k6 version does, exit 0', async () => {
    for (const args of [['version'], ['--version']]) {
      const r = await loadlab(...args);
      assert.equal(r.code, 0, r.err);
      assert.match(r.out, /^loadlab v\d+\.\d+\.\d+ \(k6 v1\.3\.0 compatible, node v[\d.]+, \w+\/\w+\)\n$/);
    }
  });

  it('an unknown command is one line and exit 2', async () => {
    const r = await loadlab('nope');
    assert.equal(r.code, 2);
    assert.equal(r.err, 'loadlab: unknown command "nope" for "loadlab" (run, version, help)\n');
  });

  describe(`held against the real k6 (skipped when ${NO_REAL_K6})`, function () {
    before(function () {
      if (!realK6()) this.skip(); // the reason: NO_REAL_K6
    });

    it("k6's sections in k6's order", async () => {
      assert.deepEqual(
        headings((await loadlab('run', '--help')).out),
        headings((await k6('run', '--help')).out),
      );
      // k6's root help has the same sections; the runner has no other command, so no more.
      assert.deepEqual(headings((await loadlab('--help')).out), headings((await k6('--help')).out));
    });

    it("each run flag has k6's short name and value type", async () => {
      const theirs = new Map([
        ...flagColumns((await k6('run', '--help')).out),
        ...flagColumns((await k6('--help')).out),
      ]);
      const ours = flagColumns((await loadlab('run', '--help')).out);
      assert.ok(ours.size >= 15, `${ours.size} flags read from the run help`);
      for (const [long, column] of ours) assert.equal(column, theirs.get(long), long);
    });

    it("the version line has k6's shape: name, v-version, details in parentheses", async () => {
      const shape = (line: string) => line.replace(/^\w+ v\d+\.\d+\.\d+ \(.+\)\n$/, 'NAME vX.Y.Z (...)');
      assert.equal(shape((await k6('version')).out), 'NAME vX.Y.Z (...)');
      assert.equal(shape((await loadlab('version')).out), 'NAME vX.Y.Z (...)');
    });
  });
});
