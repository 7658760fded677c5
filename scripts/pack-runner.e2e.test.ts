// The runner as a user gets it: @loadlab/runner and @loadlab/k6-format packed (pack-runner.ts), installed
// with `npm install` (install scripts run) into an empty folder outside the repository from the local
// tarballs and npm's cache, and `npx loadlab run` there, against a loopback target. The summary's
// layout and the exit code are held to real k6's on the same script where real k6 is here.
import assert from 'node:assert/strict';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand, type CommandResult } from '../devkit/command.js';
import { startReferenceTarget } from '../devkit/loadlab-run.js';
import { REPO } from '../bin/runner-package.js';
import { NO_REAL_K6, realK6 } from '../devkit/real-k6.js';
import { fullSummaryShape } from '../runner/testing/summary-text-shape.js';
import { packRunner } from './pack-runner.js';

const RUNNER_VERSION = (
  JSON.parse(readFileSync(join(REPO, 'runner/package.json'), 'utf8')) as { version: string }
).version;

describe('scripts/pack-runner: the packed runner installed alone runs `npx loadlab run`', function () {
  // The packed runner builds its VU host addon from source at its first run: a minute idle, more when busy.
  this.timeout(900_000);
  let work: string;
  let app: string;
  let target: Awaited<ReturnType<typeof startReferenceTarget>>;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'loadlab-user-'));
    app = join(work, 'app');
    mkdirSync(app);
    assert.ok(!realpathSync(app).startsWith(realpathSync(REPO)), 'the user folder is outside the repository');
    const tarballs = await packRunner(join(work, 'tarballs'));
    writeFileSync(join(app, 'package.json'), '{ "private": true }\n');
    const install = await runCommand(
      'npm',
      ['install', '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs],
      { cwd: app, env: process.env, timeoutMs: 720_000 },
    );
    assert.equal(install.code, 0, install.output);
    target = await startReferenceTarget();
  });
  after(async () => {
    await target?.close();
    rmSync(work, { recursive: true, force: true });
  });

  /** `npx loadlab <args>` in the user's folder, with nothing of the repository on its way. */
  const npxLoadlab = (args: string[]): Promise<CommandResult> =>
    runCommand('npx', ['--no-install', 'loadlab', ...args], {
      cwd: app,
      env: { ...process.env, BASE: target.url },
      timeoutMs: 60_000,
    });

  it('installs only the packages: compiled JavaScript with declarations, its README, licence and the built worker bundle', () => {
    const runner = join(app, 'node_modules/@loadlab/runner');
    const manifest = JSON.parse(readFileSync(join(runner, 'package.json'), 'utf8')) as Record<
      string,
      unknown
    >;
    assert.equal(manifest.private, undefined);
    assert.deepEqual(manifest.exports, { '.': { types: './index.d.ts', default: './index.js' } });
    for (const file of [
      'index.js',
      'index.d.ts',
      'bin/loadlab.js',
      'README.md',
      'LICENSE',
      'vu/worker.bundle.js',
      'vu/isolate.bundle.js',
      'bundle/index.js',
      'bundle/run-command-line.js',
    ])
      assert.ok(readFileSync(join(runner, file)).length > 0, file);
    for (const file of ['index.ts', 'cli/help.e2e.test.ts', 'testing/corpus.js'])
      assert.throws(() => readFileSync(join(runner, file)), /ENOENT/, file);
    assert.ok(readFileSync(join(app, 'node_modules/@loadlab/k6-format/index.d.ts')).length > 0);
  });

  it("the command line's bundle names each bundled module's own file where that module read import.meta.url", () => {
    const bundle = join(app, 'node_modules/@loadlab/runner/bundle');
    const owners = readdirSync(bundle).flatMap((file) => [
      ...readFileSync(join(bundle, file), 'utf8').matchAll(/new URL\("([^"]+)", import\.meta\.url\)\.href/g),
    ]);
    const named = new Set(owners.map((match) => match[1]!));
    // help.js reads the package's manifest beside its folder; worker-code.js reads the built worker
    // bundle; go-connection-pool.js requires undici's Client file.
    for (const file of ['../cli/help.js', '../vu/worker-code.js', '../host/go-connection-pool.js'])
      assert.ok(named.has(file), `${file} in ${[...named].join(', ')}`);
    for (const file of named) assert.ok(existsSync(join(bundle, file)), file);
  });

  it("a TypeScript module type-checks against the packages' declarations (with @types/node)", async () => {
    writeFileSync(
      join(app, 'use.mts'),
      `import { EXIT, inspect, main } from '@loadlab/runner';
import { parseDuration } from '@loadlab/k6-format/duration';
const code: number = await main(['version']);
const plan = await inspect('t.js');
const ms: number = parseDuration('1m');
export const seen = [code, EXIT.thresholds, plan.maxVus, ms];
`,
    );
    const compilerOptions = {
      module: 'NodeNext',
      moduleResolution: 'NodeNext',
      target: 'ES2022',
      strict: true,
      noEmit: true,
      types: ['node'],
      typeRoots: [join(REPO, 'node_modules/@types')],
    };
    // Not tsconfig.json: esbuild would read that one when the runner bundles the other tests' scripts.
    const config = join(app, 'tsconfig.typecheck.json');
    writeFileSync(config, JSON.stringify({ compilerOptions, files: ['use.mts'] }));
    const tsc = await runCommand(
      process.execPath,
      [join(REPO, 'node_modules/typescript/bin/tsc'), '-p', config],
      {
        cwd: app,
        env: process.env,
      },
    );
    assert.equal(tsc.code, 0, tsc.output);
  });

  it('`npx loadlab version` names the runner package version', async () => {
    const r = await npxLoadlab(['version']);
    assert.equal(r.code, 0, r.output);
    assert.match(
      r.stdout,
      new RegExp(`^loadlab v${RUNNER_VERSION.replace(/\./g, '\\.')} \\(k6 v1\\.3\\.0 compatible`),
    );
  });

  /** Runs `script` (file name in the user's folder) on the installed runner and, where it is here, real k6. */
  async function sideBySide(
    this: Mocha.Context,
    script: string,
    expectedCode: number,
  ): Promise<CommandResult> {
    const runner = await npxLoadlab(['run', script]);
    assert.equal(runner.code, expectedCode, runner.output);
    assert.match(runner.stdout, /█ TOTAL RESULTS/);
    // Its VUs share isolates: the package's addon was built and loaded (else one warning says it was not).
    if (!process.env.LOADLAB_VU_HOST)
      assert.doesNotMatch(runner.stderr, /VUs run in worker threads|VUs run in isolates of their own/);
    const k6 = realK6();
    if (!k6) {
      console.log(`      (layout not compared: ${NO_REAL_K6})`);
      return runner;
    }
    const real = await runCommand(k6, ['run', script], {
      cwd: app,
      env: { ...process.env, BASE: target.url },
    });
    assert.equal(runner.code, real.code, real.output);
    assert.deepEqual(fullSummaryShape(runner.stdout), fullSummaryShape(real.stdout));
    return runner;
  }

  it("runs a script against a loopback target with k6's summary and exit code 0", async function () {
    writeFileSync(
      join(app, 't.js'),
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 3, thresholds: { checks: ['rate==1'] } };
export default function () {
  check(http.get(__ENV.BASE + '/health'), { 'status is 200': (r) => r.status === 200 });
}
`,
    );
    const run = await sideBySide.call(this, 't.js', 0);
    assert.match(run.stdout, /checks_succeeded\.+: 100\.00% 3 out of 3/);
    assert.match(run.stdout, /iterations\.+: 3 /);
  });

  it('exits 99 as k6 does when a threshold is crossed', async function () {
    writeFileSync(
      join(app, 'crossed.js'),
      `import http from 'k6/http';
export const options = { iterations: 2, thresholds: { http_req_failed: ['rate==0'] } };
export default function () { http.get(__ENV.BASE + '/fail'); }
`,
    );
    const run = await sideBySide.call(this, 'crossed.js', 99);
    assert.match(run.stdout, /✗ 'rate==0'/);
  });

  it('runs a script that imports a local module and reads a file with open()', async function () {
    mkdirSync(join(app, 'lib'), { recursive: true });
    writeFileSync(join(app, 'lib/greet.js'), `export const greet = (name) => 'hello ' + name;\n`);
    writeFileSync(join(app, 'people.txt'), 'ada\ngrace\n');
    writeFileSync(
      join(app, 'local.js'),
      `import { check } from 'k6';
import { greet } from './lib/greet.js';
const people = open('./people.txt').trim().split('\\n');
export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };
export default function () {
  const line = greet(people[__ITER % people.length]);
  check(line, { 'greets someone in the file': (l) => /^hello (ada|grace)$/.test(l) });
  console.log(line);
}
`,
    );
    const run = await sideBySide.call(this, 'local.js', 0);
    assert.match(run.stdout, /checks_succeeded\.+: 100\.00% 2 out of 2/);
    assert.match(run.stderr, /msg="hello ada" source=console/);
  });
});
