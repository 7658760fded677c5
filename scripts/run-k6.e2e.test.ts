// run-k6.sh picks its engine from what the machine has; fake k6/docker binaries on PATH stand in
// for the real ones, which these machines do not have.
import assert from 'node:assert/strict';
import { chmodSync, existsSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCommand } from '../devkit/command.js';

const SCRIPT = 'k6/scenarios/smoke/api-health.ts';
const BROWSER = 'k6/scenarios/browser/login-page.ts';

function fakeBin(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-fakebin-'));
  for (const [name, body] of Object.entries(files)) {
    writeFileSync(join(dir, name), `#!/usr/bin/env bash\n${body}\n`);
    chmodSync(join(dir, name), 0o755);
  }
  return dir;
}

const FAKE_K6 = (version: string) =>
  `if [[ $1 == version ]]; then echo "k6 ${version} (go1.24, linux/amd64)"; exit 0; fi\necho "k6-args: $*"; echo "dashboard=\${K6_WEB_DASHBOARD:-} export=\${K6_WEB_DASHBOARD_EXPORT:-}"`;

async function run(args: string[], env: Record<string, string>, bin?: string) {
  const PATH = bin ? `${bin}:/usr/bin:/bin` : '/usr/bin:/bin';
  const result = await runCommand('scripts/run-k6.sh', args, {
    cwd: process.cwd(),
    env: { PATH, HOME: tmpdir(), ...env },
  });
  return { code: result.code, out: result.stdout, err: result.stderr };
}

describe('scripts/run-k6.sh', () => {
  it('prefers a k6 >= 1.0 on PATH and passes flags and the dashboard mapping through', async () => {
    const bin = fakeBin({ k6: FAKE_K6('v1.3.0') });
    const r = await run([SCRIPT, '--vus', '2'], { LT_DASHBOARD: 'true' }, bin);
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /engine k6 \(k6 v1\.3\.0 on PATH\); version k6 v1\.3\.0$/m);
    assert.match(r.out, new RegExp(`k6-args: run ${SCRIPT} --vus 2`));
    assert.match(r.out, /dashboard=true export=results\/report\.html/);
  });

  it('runs the k6 LT_K6_BINARY names, not on PATH and under another name, with its version on the line', async () => {
    const bin = fakeBin({ 'k6-xk6': FAKE_K6('v1.3.0') });
    const r = await run([SCRIPT], { LT_ENGINE: 'k6', LT_K6_BINARY: join(bin, 'k6-xk6') });
    assert.equal(r.code, 0, r.err);
    assert.match(r.err, /^run-k6: engine k6 \(LT_ENGINE=k6\); version k6 v1\.3\.0$/m);
    assert.match(r.out, new RegExp(`k6-args: run ${SCRIPT}`));
  });

  it('skips a k6 older than 1.0 and a container engine that does not answer', async () => {
    const bin = fakeBin({ k6: FAKE_K6('v0.49.0'), docker: 'exit 1', node: 'echo "node-args: $*"' });
    const r = await run([SCRIPT, '-i', '1'], {}, bin);
    // The version the report names the engine with (report/engine-of-run.ts reads this line from the log).
    const { version } = JSON.parse(readFileSync('runner/package.json', 'utf8')) as { version: string };
    assert.match(
      r.err,
      /engine node \(no k6 on PATH and no usable container engine\); version loadlab (\S+)$/m,
    );
    assert.equal(/version loadlab (\S+)$/m.exec(r.err)?.[1], version);
    assert.match(r.out, new RegExp(`node-args: bin/loadlab.js run ${SCRIPT} -i 1`));
  });

  it('runs k6 in the container with the host sandbox address when a container engine answers', async () => {
    const bin = fakeBin({
      docker: 'if [[ $1 == info ]]; then exit 0; fi; echo "docker-args: $*"; echo "base=$BASE_URL"',
    });
    // Docker Desktop's way (a native Linux engine's host network is in stack/engine.e2e.test.ts).
    const desktop = { LOADLAB_CONTAINER_NETWORK: 'gateway' };
    const r = await run(
      [SCRIPT],
      { ...desktop, BASE_URL: 'http://localhost:5050', DEMO_EMAIL: 'a@b.c' },
      bin,
    );
    assert.match(r.err, /engine docker/);
    assert.match(r.out, /base=http:\/\/host\.docker\.internal:5050/);
    assert.match(r.out, /-e DEMO_EMAIL/);
    assert.match(r.out, /grafana\/k6:1\.3\.0 run k6\/scenarios\/smoke\/api-health\.ts/);
  });

  it('points the clinic addresses at the host too, and passes flags and the dashboard port to the container', async () => {
    const bin = fakeBin({
      docker:
        'if [[ $1 == info ]]; then exit 0; fi; echo "docker-args: $*"; echo "clinic=$CLINIC_BASE_URL secure=$CLINIC_SECURE_BASE_URL"',
    });
    const r = await run(
      [SCRIPT, '--vus', '3'],
      {
        LOADLAB_CONTAINER_NETWORK: 'gateway',
        CLINIC_SECURE_BASE_URL: 'http://127.0.0.1:9967/petclinic/api',
        LT_DASHBOARD: 'true',
      },
      bin,
    );
    assert.equal(r.code, 0, r.err);
    assert.match(
      r.out,
      /clinic=http:\/\/host\.docker\.internal:9966\/petclinic\/api secure=http:\/\/host\.docker\.internal:9967\/petclinic\/api/,
    );
    assert.match(r.out, /-e CLINIC_BASE_URL/);
    assert.match(r.out, /-e K6_WEB_DASHBOARD_EXPORT/);
    assert.match(r.out, /-p 5665:5665/);
    assert.match(r.out, /api-health\.ts --vus 3$/m);
  });

  it('maps LT_DASHBOARD to the Node runner dashboard as well, keeping an export path already set', async () => {
    const bin = fakeBin({ node: 'echo "dashboard=$K6_WEB_DASHBOARD export=$K6_WEB_DASHBOARD_EXPORT"' });
    const r = await run(
      [SCRIPT],
      { LT_ENGINE: 'node', LT_DASHBOARD: 'true', K6_WEB_DASHBOARD_EXPORT: 'results/x.html' },
      bin,
    );
    assert.match(r.err, /engine node \(LT_ENGINE=node\)/);
    assert.match(r.out, /dashboard=true export=results\/x\.html/);
    const off = await run([SCRIPT], { LT_ENGINE: 'node' }, bin);
    assert.match(off.out, /dashboard= export=$/m);
  });

  it('makes the folders the run writes into: results, LT_RESULTS_DIR, and those of LT_RUN_SUMMARY and the export', async () => {
    const bin = fakeBin({ node: 'echo ran' });
    const root = mkdtempSync(join(tmpdir(), 'loadlab-run-dirs-'));
    const r = await run(
      [SCRIPT],
      {
        LT_ENGINE: 'node',
        LT_RESULTS_DIR: join(root, 'out'),
        LT_RUN_SUMMARY: join(root, 'runs', 'a', 'x.json'),
        K6_WEB_DASHBOARD_EXPORT: join(root, 'html', 'report.html'),
      },
      bin,
    );
    assert.equal(r.code, 0, r.err);
    for (const dir of ['out', 'runs/a', 'html']) assert.ok(existsSync(join(root, dir)), dir);
  });

  it('keeps a browser scenario native unless the container engine is asked for by name', async () => {
    const bin = fakeBin({
      docker: 'if [[ $1 == info ]]; then exit 0; fi; echo "docker-args: $*"',
      node: 'echo "node-args: $*"',
    });
    assert.match((await run([BROWSER], {}, bin)).err, /engine node/);
    const forced = await run([BROWSER], { LT_ENGINE: 'docker' }, bin);
    assert.equal(forced.code, 0, forced.err);
    assert.match(forced.out, /grafana\/k6:1\.3\.0-with-browser run /);
  });

  const FAKE_K6_BROWSER_ENV = `${FAKE_K6('v1.3.0')}\necho "exe=\${K6_BROWSER_EXECUTABLE_PATH-unset} args=\${K6_BROWSER_ARGS-unset}"`;
  const ROOT = process.getuid?.() === 0;

  it("gives real k6's browser no-sandbox as root, and only to browser scripts", async () => {
    const bin = fakeBin({ k6: FAKE_K6_BROWSER_ENV });
    const browser = await run([BROWSER], {}, bin);
    assert.equal(browser.code, 0, browser.err);
    assert.match(browser.out, ROOT ? /args=no-sandbox$/m : /args=unset$/m);
    assert.match((await run([SCRIPT], {}, bin)).out, /exe=unset args=unset$/m);
  });

  it('never replaces a K6_BROWSER_* the user set, even an empty one', async () => {
    const bin = fakeBin({ k6: FAKE_K6_BROWSER_ENV });
    const r = await run([BROWSER], { K6_BROWSER_ARGS: '', K6_BROWSER_EXECUTABLE_PATH: '/opt/chrome' }, bin);
    assert.match(r.out, /exe=\/opt\/chrome args=$/m);
  });

  it("names Chromium's path only when none of the names k6 looks up is on PATH", async function () {
    if (!existsSync('/usr/bin/chromium')) this.skip(); // no Debian chromium on this machine
    const bin = fakeBin({ k6: FAKE_K6_BROWSER_ENV });
    // /usr/bin holds chromium: k6 finds it there by itself.
    assert.match((await run([BROWSER], {}, bin)).out, /exe=unset /);
    // A PATH of only the tools the script uses, no browser on it.
    for (const tool of ['bash', 'sed', 'grep', 'head', 'cut', 'id', 'mkdir', 'dirname'])
      symlinkSync(join('/usr/bin', tool), join(bin, tool));
    const r = await runCommand('/usr/bin/bash', ['scripts/run-k6.sh', BROWSER], {
      cwd: process.cwd(),
      env: { PATH: bin, HOME: tmpdir() },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /exe=\/usr\/bin\/chromium /);
  });

  it('refuses bad input in one line', async () => {
    assert.match((await run([], {})).err, /^run-k6: usage/);
    assert.match((await run(['nope.js'], {})).err, /no such script: nope\.js/);
    const bad = await run([SCRIPT], { LT_ENGINE: 'jmeter' });
    assert.equal(bad.code, 2);
    assert.match(bad.err, /LT_ENGINE must be auto, k6, docker or node/);
    assert.match((await run([SCRIPT], { LT_ENGINE: 'k6' })).err, /no k6 >= 1\.0 on PATH/);
  });

  it('loads the env file without overriding variables already set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-envfile-'));
    const envFile = join(dir, '.env');
    writeFileSync(
      envFile,
      "# comment\nDEMO_EMAIL=file@x.test\nDEMO_PASSWORD=\"from-file\"\nBASE_URL=http://file:1\nADMIN_PASSWORD='it''s'\nADMIN_USER='admin'\n",
    );
    const bin = fakeBin({
      node: 'echo "email=$DEMO_EMAIL password=$DEMO_PASSWORD base=$BASE_URL admin=$ADMIN_USER/$ADMIN_PASSWORD"',
    });
    const r = await run([SCRIPT], { LT_ENV_FILE: envFile, BASE_URL: 'http://set:2' }, bin);
    assert.equal(r.code, 0, r.err);
    assert.match(r.out, /email=file@x\.test password=from-file base=http:\/\/set:2 admin=admin\/it''s/);
    const missing = await run([SCRIPT], { LT_ENV_FILE: join(dir, 'nope.env') }, bin);
    assert.equal(missing.code, 2);
    assert.equal(missing.err.trim(), `run-k6: LT_ENV_FILE=${join(dir, 'nope.env')}: no such file`);
  });

  it('is shellcheck clean', async () => {
    const r = await runCommand('shellcheck', ['-x', 'scripts/run-k6.sh'], {
      cwd: process.cwd(),
      env: { ...process.env },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
  });
});
