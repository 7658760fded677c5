// compose.sh and run-k6.sh against a container engine, without one: a fake `docker` client
// (fixtures/fake-docker.mjs) answers `docker info` as a native Linux engine or Docker Desktop would,
// refuses flags docker and compose do not have, records every call with the state of results/ at that
// moment, and can carry out a host-network `docker run` with the real k6 of ../shared/tools/k6.
import assert from 'node:assert/strict';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { realK6 } from '../devkit/real-k6.js';
import { runCommand } from '../devkit/command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FAKE = join(ROOT, 'stack/fixtures/fake-docker.mjs');
const DESKTOP = 'Docker Desktop';
const LINUX = 'Ubuntu 24.04.1 LTS';

interface Call {
  args: string[];
  results: number | null;
}

/** A copy of what the wrappers read, as a fresh clone has it: no results/, no .env, no dist/. */
function freshCheckout(): string {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-clone-'));
  for (const file of [
    'stack/compose.sh',
    'scripts/run-k6.sh',
    'scripts/lib/container.sh',
    'stack/versions.env',
  ]) {
    mkdirSync(join(dir, file, '..'), { recursive: true });
    cpSync(join(ROOT, file), join(dir, file));
  }
  return dir;
}

function fakeEngine(): { bin: string; calls: string } {
  const bin = mkdtempSync(join(tmpdir(), 'loadlab-fake-engine-'));
  symlinkSync(FAKE, join(bin, 'docker'));
  return { bin, calls: join(bin, 'calls.jsonl') };
}

function withoutInherited(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  for (const name of Object.keys(env)) {
    if (/^(LOADLAB_|K6_|LT_|BASE_URL$|CLINIC_.*URL$|FAKE_DOCKER_)/.test(name)) delete env[name];
  }
  return env;
}

async function runWrapper(cwd: string, script: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = await runCommand(join(cwd, script), args, { cwd, env });
  return { status: result.code, stdout: result.stdout, stderr: result.stderr.trim() };
}

function callsOf(path: string): Call[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Call)
    : [];
}

describe('compose.sh on a container engine (fake docker client)', () => {
  let engine: { bin: string; calls: string };
  let clone: string;
  beforeEach(() => {
    engine = fakeEngine();
    clone = freshCheckout();
  });
  afterEach(() => {
    rmSync(engine.bin, { recursive: true, force: true });
    rmSync(clone, { recursive: true, force: true });
  });

  const env = (os = LINUX): NodeJS.ProcessEnv => ({
    ...withoutInherited(),
    PATH: `${engine.bin}:${process.env.PATH}`,
    DOCKER_CALLS: engine.calls,
    FAKE_DOCKER_OS: os,
  });
  const compose = async (args: string[], os = LINUX) => {
    const result = await runWrapper(clone, 'stack/compose.sh', args, env(os));
    assert.equal(result.status, 0, result.stderr);
    return { ...result, calls: callsOf(engine.calls) };
  };
  const line = (call: Call) => call.args.join(' ');
  const base = 'compose -f stack/docker-compose.yml';
  const k6Run = (profile: string, script: string) =>
    `${base} --profile k6 run --rm --build -e LT_PROFILE=${profile} k6 run suite/scenarios/${script}.js`;

  const cases: Array<[string, string]> = [
    ['up', `${base} --profile services up -d --build --wait`],
    ['down', `${base} --profile services --profile monitoring --profile k6 down`],
    ['reset', `${base} --profile services --profile monitoring --profile k6 down -v`],
    ['smoke', k6Run('smoke', 'smoke/api-health')],
    ['load', k6Run('load', 'load/mixed-traffic')],
    ['stress', k6Run('stress', 'stress/api-breakpoint')],
    ['grafana-down', `${base} --profile monitoring --profile k6 down`],
    ['build', `${base} --profile k6 build k6`],
  ];
  for (const [command, expected] of cases) {
    it(`${command} runs: ${expected}`, async () => {
      assert.deepEqual((await compose([command])).calls.map(line), [expected]);
    });
  }

  it('every k6 run rebuilds the image first, so edited k6/*.ts are what runs', async () => {
    for (const command of ['smoke', 'smoke-host', 'load', 'stress']) {
      for (const call of (await compose([command])).calls)
        assert.match(line(call), / run --rm --build /, command);
      rmSync(engine.calls, { force: true });
    }
  });

  it('makes results/ as the user before the engine would bind-mount it (as root) on a fresh clone', async () => {
    assert.equal(existsSync(join(clone, 'results')), false);
    const [call] = (await compose(['smoke'])).calls;
    assert.equal(call?.results, process.getuid?.(), 'results/ existed, owned by the invoking user');
  });

  it('reads the pinned versions the k6 image build gets from stack/versions.env', async () => {
    const probe = await runCommand(
      'bash',
      [
        '-c',
        'cd "$1" && . scripts/lib/container.sh && load_versions . && echo "$K6_VERSION $XK6_VERSION"',
        '_',
        clone,
      ],
      { cwd: process.cwd(), env: { ...process.env } },
    );
    const pins = Object.fromEntries(
      readFileSync(join(ROOT, 'stack/versions.env'), 'utf8')
        .split('\n')
        .filter((l) => /^[A-Z]/.test(l))
        .map((l) => l.split('=') as [string, string]),
    );
    assert.equal(probe.stdout.trim(), `${pins.K6_VERSION} ${pins.XK6_VERSION}`);
  });

  it('stream starts the monitoring profile, checks the secrets, then streams with a testid', async () => {
    // The secrets check is node's: give it a stand-in that passes, as it does against a healthy stack.
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    writeFileSync(join(clone, 'scripts/stack-doctor.ts'), 'process.exit(0);\n');
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const { calls } = await compose(['stream', 'scenarios/load/mixed-traffic', 'load', '--vus', '2']);
    assert.equal(line(calls[0]!), `${base} --profile monitoring up -d --build --wait`);
    assert.match(
      line(calls[1]!),
      /^compose .* --profile k6 run --rm --build -e LT_PROFILE=load k6 run --tag testid=\d{8}T\d{6}Z-mixed-traffic -o xk6-influxdb=http:\/\/influxdb:8086 --vus 2 suite\/scenarios\/load\/mixed-traffic\.js$/,
    );
  });

  it("stream records the run for stack:verify and exits with the k6 container's code", async () => {
    mkdirSync(join(clone, 'scripts'), { recursive: true });
    writeFileSync(join(clone, 'scripts/stack-doctor.ts'), 'process.exit(0);\n');
    symlinkSync(join(ROOT, 'node_modules'), join(clone, 'node_modules'));
    const before = Math.floor(Date.now() / 1000);
    const result = await runWrapper(
      clone,
      'stack/compose.sh',
      ['stream', 'scenarios/load/mixed-traffic', 'ci'],
      {
        ...env(),
        FAKE_DOCKER_RUN_EXIT: '99',
      },
    );
    assert.equal(result.status, 99, result.stderr);
    const record = readFileSync(join(clone, 'results/stack/last-run.env'), 'utf8');
    const testid = /testid=(\d{8}T\d{6}Z-mixed-traffic)/.exec(line(callsOf(engine.calls)[1]!))?.[1];
    assert.ok(testid);
    const started = Number(/^started=(\d+)$/m.exec(record)?.[1]);
    const ended = Number(/^ended=(\d+)$/m.exec(record)?.[1]);
    assert.ok(started >= before && ended >= started && ended <= Date.now() / 1000 + 1, record);
    assert.equal(
      record,
      `testid=${testid}\nscenario=scenarios/load/mixed-traffic\nprofile=ci\nstarted=${started}\nended=${ended}\nexit=99\n`,
    );
  });

  it('smoke-host: on a native Linux engine, the host-network service calling 127.0.0.1', async () => {
    const { calls, stderr } = await compose(['smoke-host', '--vus', '1']);
    assert.deepEqual(calls.map(line), [
      `${base} --profile k6 run --rm --build --no-deps -e LT_PROFILE=smoke k6-host run --vus 1 suite/scenarios/smoke/api-health.js`,
    ]);
    assert.match(stderr, /calls the host's sandbox at http:\/\/127\.0\.0\.1:5050 over the host network/);
  });

  it('smoke-host: on Docker Desktop, host.docker.internal', async () => {
    const { calls, stderr } = await compose(['smoke-host'], DESKTOP);
    assert.match(line(calls[0]!), /-e BASE_URL=http:\/\/host\.docker\.internal:5050 k6 run suite\//);
    assert.match(stderr, /host\.docker\.internal:5050 \(Docker Desktop's host gateway\)/);
  });

  it('works without .env, as bash 3.2 with set -u would need (no empty array expanded bare)', async () => {
    assert.equal(existsSync(join(clone, '.env')), false);
    assert.deepEqual((await compose(['down'])).calls.map(line), [
      `${base} --profile services --profile monitoring --profile k6 down`,
    ]);
  });
});

describe('run-k6.sh with LT_ENGINE=docker (fake docker client)', function () {
  this.timeout(60_000);
  let engine: { bin: string; calls: string };
  let clone: string;
  beforeEach(() => {
    engine = fakeEngine();
    clone = freshCheckout();
    writeFileSync(join(clone, 'script.js'), "import http from 'k6/http';\nexport default function () {}\n");
  });
  afterEach(() => {
    rmSync(engine.bin, { recursive: true, force: true });
    rmSync(clone, { recursive: true, force: true });
  });

  const run = async (os: string, extra: NodeJS.ProcessEnv = {}, script = 'script.js') => {
    const result = await runWrapper(clone, 'scripts/run-k6.sh', [script, '--vus', '1'], {
      ...withoutInherited(),
      PATH: `${engine.bin}:${process.env.PATH}`,
      DOCKER_CALLS: engine.calls,
      FAKE_DOCKER_OS: os,
      LT_ENGINE: 'docker',
      ...extra,
    });
    assert.equal(result.status, 0, result.stderr);
    return { stderr: result.stderr, args: callsOf(engine.calls).at(-1)!.args };
  };

  it('native Linux engine: the host network, URLs unchanged, and says what the container calls', async () => {
    const { args, stderr } = await run(LINUX, { BASE_URL: 'http://127.0.0.1:5050' });
    assert.deepEqual(args.slice(0, 5), ['run', '--rm', '-i', '--network', 'host']);
    assert.ok(!args.includes('--add-host=host.docker.internal:host-gateway'));
    // The engine line ends with the image's version, which the report reads.
    assert.match(
      stderr,
      /the container calls BASE_URL=http:\/\/127\.0\.0\.1:5050 through the host network; version grafana\/k6:1\.3\.0$/,
    );
    assert.ok(args.includes('grafana/k6:1.3.0'), args.join(' '));
  });

  it("Docker Desktop: host.docker.internal through the engine's host gateway", async () => {
    const { args, stderr } = await run(DESKTOP, { BASE_URL: 'http://localhost:5050' });
    assert.ok(args.includes('--add-host=host.docker.internal:host-gateway'));
    assert.ok(!args.includes('--network'));
    assert.match(
      stderr,
      /BASE_URL=http:\/\/host\.docker\.internal:5050 through Docker Desktop's host gateway; version grafana\/k6:1\.3\.0$/,
    );
  });

  it('makes results/ before the container mounts the folder, and runs without any -e variable (bash 3.2)', async () => {
    const { args } = await run(LINUX);
    assert.equal(callsOf(engine.calls)[0]?.results, process.getuid?.());
    assert.ok(args.includes('-v'));
  });

  it('a browser script gets the -with-browser image instead of a refusal', async () => {
    writeFileSync(
      join(clone, 'browser.js'),
      "import { browser } from 'k6/browser';\nexport default function () {}\n",
    );
    const { args } = await run(LINUX, {}, 'browser.js');
    assert.ok(args.includes('grafana/k6:1.3.0-with-browser'), args.join(' '));
    // Run as the invoking uid (no passwd entry there): a HOME it can write, not the engine's "/".
    const home = args.indexOf('HOME=/tmp');
    assert.ok(home > 0 && args[home - 1] === '-e', args.join(' '));
    assert.ok(args.indexOf('-u') >= 0 && args.indexOf('-u') < args.indexOf(args.at(-1)!));
  });

  it('a host-network container run reaches the services on 127.0.0.1 and writes results/ (real k6)', async function () {
    const k6 = realK6();
    if (!k6) {
      console.warn('      skipped: no real k6 (../shared/tools/k6 or REAL_K6); a user clone has none');
      this.skip();
    }
    const server = createServer((_req, res) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}'),
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    writeFileSync(
      join(clone, 'script.js'),
      [
        "import http from 'k6/http';",
        "import { check } from 'k6';",
        "export const options = { thresholds: { checks: ['rate==1'] } };",
        "export default function () { check(http.get(`${__ENV.BASE_URL}/health`), { 'health 200': (r) => r.status === 200 }); }",
        "export function handleSummary(data) { return { 'results/summary.json': JSON.stringify(data) }; }",
      ].join('\n'),
    );
    try {
      const { code } = await runCommand(
        join(clone, 'scripts/run-k6.sh'),
        ['script.js', '--iterations', '2', '-q'],
        {
          cwd: clone,
          env: {
            ...withoutInherited(),
            PATH: `${engine.bin}:${process.env.PATH}`,
            FAKE_DOCKER_OS: LINUX,
            FAKE_DOCKER_EXEC_K6: k6,
            LT_ENGINE: 'docker',
            BASE_URL: url,
          },
          timeoutMs: 60_000,
        },
      );
      assert.equal(code, 0);
      const summary = JSON.parse(readFileSync(join(clone, 'results/summary.json'), 'utf8')) as {
        metrics: { checks: { values: { passes: number } } };
      };
      assert.equal(summary.metrics.checks.values.passes, 2);
    } finally {
      server.close();
    }
  });
});
