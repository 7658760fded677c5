// The command wrappers behind the npm docker:*, grafana:* and streaming scripts: they refuse with
// one clear line (and a non-zero code) when a container engine, an InfluxDB or a cloud setting is missing.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { missingVariables } from '../scripts/lib/missing-variables.js';
import { influxdConfig } from '../devkit/influxdb.js';
import { localPrometheusConfig, readStackPrometheusConfig } from '../devkit/prometheus.js';
import { parse } from 'yaml';
import { runCommand } from '../devkit/command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CLOUD_VARS = [
  'K6_INFLUXDB_ADDR',
  'K6_INFLUXDB_ORGANIZATION',
  'K6_INFLUXDB_BUCKET',
  'K6_INFLUXDB_TOKEN',
];

async function run(script: string, args: string[], env: NodeJS.ProcessEnv) {
  const result = await runCommand(join(ROOT, script), args, { cwd: ROOT, env });
  return { status: result.code, stdout: result.stdout, stderr: result.stderr.trim() };
}

describe('stack command wrappers', () => {
  let fakeBin = '';
  before(() => {
    // A docker client whose engine is down, as on these machines.
    fakeBin = mkdtempSync(join(tmpdir(), 'loadlab-fake-docker-'));
    writeFileSync(
      join(fakeBin, 'docker'),
      '#!/bin/sh\necho "Cannot connect to the Docker daemon" >&2\nexit 1\n',
    );
    chmodSync(join(fakeBin, 'docker'), 0o755);
  });
  after(() => rmSync(fakeBin, { recursive: true, force: true }));

  for (const command of [
    'up',
    'down',
    'smoke',
    'smoke-host',
    'load',
    'stress',
    'grafana-up',
    'grafana-down',
    'build',
  ]) {
    it(`compose.sh ${command} refuses in one line without a container engine`, async () => {
      const result = await run('stack/compose.sh', [command], {
        ...process.env,
        PATH: `${fakeBin}:${process.env.PATH}`,
      });
      assert.equal(result.status, 3);
      assert.equal(result.stderr.split('\n').length, 1, result.stderr);
      assert.match(result.stderr, /no container engine answers.*stack:native/);
    });
  }

  it('native/stream.sh cloud names every missing K6_INFLUXDB_* variable in one line', async () => {
    const env = { ...process.env, ...Object.fromEntries(CLOUD_VARS.map((name) => [name, ''])) };
    const result = await run('stack/native/stream.sh', ['cloud', 'scenarios/smoke/api-health'], env);
    assert.equal(result.status, 2);
    assert.equal(result.stderr.split('\n').length, 1, result.stderr);
    for (const name of CLOUD_VARS) assert.match(result.stderr, new RegExp(name));
  });

  it('native/stream.sh cloud names only what is missing', async () => {
    const env = {
      ...process.env,
      K6_INFLUXDB_ADDR: 'https://example.invalid',
      K6_INFLUXDB_ORGANIZATION: 'o',
    };
    Object.assign(env, { K6_INFLUXDB_BUCKET: '', K6_INFLUXDB_TOKEN: '' });
    const result = await run('stack/native/stream.sh', ['cloud', 'scenarios/smoke/api-health'], env);
    assert.equal(result.status, 2);
    assert.match(result.stderr, /missing K6_INFLUXDB_BUCKET, K6_INFLUXDB_TOKEN \(/);
  });

  it('native/stream.sh local passes k6 flags after the profile on to the engine', async function () {
    // Two tsx processes and run-k6.sh: over the suite's 20 s on a loaded machine (seen at load 20).
    this.timeout(60_000);
    // An InfluxDB 1.x that answers /ping, and a k6 >= 1.0 on PATH that prints its arguments.
    const influx = createServer((_req, res) =>
      res.writeHead(204, { 'X-Influxdb-Version': '1.6.7~rc0' }).end(),
    );
    await new Promise<void>((r) => influx.listen(0, '127.0.0.1', r));
    const bin = mkdtempSync(join(tmpdir(), 'loadlab-fake-k6-'));
    writeFileSync(
      join(bin, 'k6'),
      '#!/bin/bash\nif [[ $1 == version ]]; then echo "k6 v1.3.0 (go1.24, linux/amd64)"; exit 0; fi\necho "k6-args: $*"\n',
    );
    chmodSync(join(bin, 'k6'), 0o755);
    try {
      const port = (influx.address() as AddressInfo).port;
      const { code, output } = await runCommand(
        join(ROOT, 'stack/native/stream.sh'),
        ['local', 'scenarios/smoke/api-health', 'smoke', '--vus', '2', '--duration', '5s'],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            PATH: `${bin}:${process.env.PATH}`,
            LOADLAB_INFLUXDB_V1_URL: `http://127.0.0.1:${port}/k6`,
          },
          timeoutMs: 60_000,
        },
      );
      const result = { code, out: output };
      assert.equal(result.code, 0, result.out);
      assert.match(result.out, /InfluxDB 1\.6\.7~rc0 at http:\/\/127\.0\.0\.1:\d+ speaks the v1 API/);
      assert.match(result.out, /engine: k6 from PATH/);
      assert.match(
        result.out,
        /k6-args: run .*-o influxdb=http:\/\/127\.0\.0\.1:\d+\/k6 --vus 2 --duration 5s/,
      );
    } finally {
      influx.close();
      rmSync(bin, { recursive: true, force: true });
    }
  });

  it('native/stream.sh local refuses when no InfluxDB answers', async () => {
    const env = { ...process.env, LOADLAB_INFLUXDB_V1_URL: 'http://127.0.0.1:9/k6' };
    const result = await run('stack/native/stream.sh', ['local', 'scenarios/smoke/api-health'], env);
    assert.equal(result.status, 3);
    assert.match(
      result.stderr,
      /no InfluxDB answers at http:\/\/127\.0\.0\.1:9; start one with 'npm run stack:native'$/,
    );
  });

  it('both wrappers reject unknown commands with usage', async () => {
    assert.equal((await run('stack/native/stream.sh', ['moon', 'x'], process.env)).status, 2);
    const result = await run('stack/compose.sh', ['moon'], {
      ...process.env,
      PATH: `${fakeBin}:${process.env.PATH}`,
    });
    assert.equal(result.status, 3); // the engine check comes first
  });
});

describe('influxdb/create-dbrp.sh (InfluxDB 2.x init hook)', () => {
  let fakeBin = '';
  before(() => {
    // A fake influx CLI: `bucket list` answers like the real one (id, name, ...), every call is logged.
    fakeBin = mkdtempSync(join(tmpdir(), 'loadlab-fake-influx-'));
    const script = [
      '#!/bin/sh',
      'echo "$*" >> "$INFLUX_CALLS"',
      'if [ "$1 $2" = "bucket list" ]; then',
      '  [ "$6" = k6 ] && printf "0a1b2c3d4e5f6789\\tk6\\t720h0m0s\\n"',
      'fi',
      'exit 0',
    ].join('\n');
    writeFileSync(join(fakeBin, 'influx'), `${script}\n`);
    chmodSync(join(fakeBin, 'influx'), 0o755);
  });
  after(() => rmSync(fakeBin, { recursive: true, force: true }));

  const runInit = async (bucket: string) => {
    const calls = join(fakeBin, `calls-${bucket}`);
    const result = await run('stack/influxdb/create-dbrp.sh', [], {
      ...process.env,
      PATH: `${fakeBin}:${process.env.PATH}`,
      INFLUX_CALLS: calls,
      DOCKER_INFLUXDB_INIT_BUCKET: bucket,
      DOCKER_INFLUXDB_INIT_ORG: 'loadlab',
    });
    return { ...result, calls: readFileSync(calls, 'utf8').trim().split('\n') };
  };

  it('maps the InfluxQL database <bucket>/autogen onto the bucket, as default', async () => {
    const result = await runInit('k6');
    assert.equal(result.status, 0, result.stderr);
    assert.deepEqual(result.calls, [
      'bucket list --org loadlab --name k6 --hide-headers',
      'v1 dbrp create --org loadlab --bucket-id 0a1b2c3d4e5f6789 --db k6 --rp autogen --default',
    ]);
  });

  it('fails with a clear line when the bucket does not exist', async () => {
    const result = await runInit('nope');
    assert.equal(result.status, 1);
    assert.equal(result.stderr, 'create-dbrp: bucket nope not found in org loadlab');
    assert.equal(result.calls.length, 1);
  });
});

describe('require-env (scripts/lib/missing-variables.ts)', () => {
  it('treats unset and blank values as missing, in the order asked', () => {
    assert.deepEqual(missingVariables(['A', 'B', 'C', 'D'], { A: 'x', B: '  ', D: '' }), ['B', 'C', 'D']);
    assert.deepEqual(missingVariables(['A'], { A: 'x' }), []);
  });

  it('treats the <placeholders> of .env.example as missing, real values as set', () => {
    const env = {
      K6_INFLUXDB_ADDR: 'https://<region>.cloud2.influxdata.com',
      K6_INFLUXDB_TOKEN: '<token>',
      K6_INFLUXDB_BUCKET: 'k6',
      K6_INFLUXDB_ORGANIZATION: 'a<b>c',
    };
    assert.deepEqual(missingVariables(CLOUD_VARS, env), ['K6_INFLUXDB_ADDR', 'K6_INFLUXDB_TOKEN']);
    assert.deepEqual(
      missingVariables(CLOUD_VARS, {
        ...env,
        K6_INFLUXDB_ADDR: 'https://eu-central-1-1.aws.cloud2.influxdata.com',
        K6_INFLUXDB_TOKEN: 'abc==',
      }),
      [],
    );
  });
});

describe('local daemons use the stack configuration', () => {
  it('Prometheus: same jobs and paths as the stack, targets on loopback', () => {
    const local = parse(
      localPrometheusConfig(readStackPrometheusConfig(), {
        'sandbox:5050': '127.0.0.1:1',
        'clinic:9966': '127.0.0.1:2',
        'clinic-secure:9967': '127.0.0.1:3',
      }),
    ) as {
      scrape_configs: Array<{
        job_name: string;
        metrics_path: string;
        static_configs: Array<{ targets: string[] }>;
      }>;
    };
    const stack = parse(readStackPrometheusConfig()) as typeof local;
    assert.deepEqual(
      local.scrape_configs.map((j) => [j.job_name, j.metrics_path, j.static_configs[0]?.targets]),
      [
        ['sandbox', '/metrics', ['127.0.0.1:1']],
        ['clinic', '/metrics', ['127.0.0.1:2']],
        ['clinic-secure', '/metrics', ['127.0.0.1:3']],
      ],
    );
    assert.deepEqual(
      local.scrape_configs.map((j) => j.job_name),
      stack.scrape_configs.map((j) => j.job_name),
    );
  });

  it('Prometheus: a target without a local address is an error, not a silent gap', () => {
    assert.throws(
      () => localPrometheusConfig(readStackPrometheusConfig(), { 'sandbox:5050': '127.0.0.1:1' }),
      /no local address for clinic target clinic:9966/,
    );
  });

  it('InfluxDB: loopback only, data in the given directory, no reporting', () => {
    const text = influxdConfig({ dataDir: '/tmp/x', httpPort: 18086, rpcPort: 18088 });
    assert.match(text, /^reporting-disabled = true$/m);
    assert.match(text, /^bind-address = "127\.0\.0\.1:18088"$/m);
    assert.match(text, /^ {2}bind-address = "127\.0\.0\.1:18086"$/m);
    assert.match(text, /^ {2}dir = "\/tmp\/x\/data"$/m);
  });
});

describe('npm scripts of the stack', () => {
  const scripts = (
    JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
  ).scripts;

  it('defines every command of the spec and the issue', () => {
    const expected = [
      'docker:up',
      'docker:down',
      'docker:smoke',
      'docker:smoke:host',
      'docker:load',
      'docker:stress',
      'grafana:up',
      'grafana:down',
      'grafana:build',
      'test:smoke:grafana',
      'test:smoke:influx:local',
      'test:smoke:influx:cloud',
      'test:load:mixed:grafana',
      'test:load:mixed:influx:local',
      'test:load:mixed:influx:cloud',
      'stack:native',
    ];
    assert.deepEqual(
      expected.filter((name) => !scripts[name]),
      [],
    );
  });

  it('names only scenarios that exist in the suite', () => {
    // Streaming scripts pass `scenarios/...`; compose.sh names the bundles inside the image as suite/....js.
    const named = [
      ...Object.values(scripts).flatMap((s) => [
        ...s.matchAll(/(?:stream|native\/stream\.sh \w+) (scenarios\/[\w/-]+)/g),
      ]),
      ...readFileSync(join(ROOT, 'stack/compose.sh'), 'utf8').matchAll(/suite\/(scenarios\/[\w/-]+)\.js/g),
    ].map((m) => m[1] ?? '');
    assert.ok(named.length >= 9, JSON.stringify(named));
    for (const scenario of new Set(named)) {
      assert.ok(existsSync(join(ROOT, 'k6', `${scenario}.ts`)), `k6/${scenario}.ts does not exist`);
    }
  });
});
