// The k6-operator manifests: every scenario's TestRun validates against the pinned CRD schema, every
// Secret and ConfigMap key it names is in the generated set, the k6 arguments survive the operator's
// handling, and bad arguments stop the command in one line.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { onPath, runCommand, runScript } from '../../devkit/command.js';
import { bundleSuite, suiteEntryPoints } from '../../k6/build.js';
import { runnersWithVus, scenarioVus, totalVus } from './bundle-vus.js';
import { UsageError } from './manifest-args.js';
import { generate, suiteScenarios } from './manifests.js';
import { IMAGE_SUITE_DIR, SECRET_NAME } from './testrun.js';
import { testRunProblems } from './testrun-schema.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
/** The arguments stack/k8s/example/testrun.yaml was written with (the README names them). */
const EXAMPLE_ARGS = [
  'scenarios/load/mixed-traffic',
  '--parallelism',
  '4',
  '--profile',
  'load',
  '--separate',
  '--cleanup',
  'post',
  '--testid',
  'example',
  '--no-secret',
  '--script',
  'image',
];
const ENV = {
  DEMO_EMAIL: 'k8s@loadlab.local',
  DEMO_PASSWORD: 'k8s-secret',
  ADMIN_PASSWORD: 'k8s-admin',
  INFLUXDB_ADMIN_TOKEN: 'k8s-token',
};

interface Manifests {
  testRun: { metadata: { name: string; namespace?: string }; spec: Record<string, unknown> };
  configMap?: { metadata: { name: string }; data: Record<string, string> };
  secret?: { metadata: { name: string }; stringData: Record<string, string> };
  files: string[];
  dir: string;
}

type EnvVar = {
  name: string;
  value?: string;
  valueFrom?: { secretKeyRef?: { name: string; key: string }; fieldRef?: { fieldPath: string } };
};

function readManifests(dir: string): Manifests {
  const load = <T>(file: string): T | undefined =>
    existsSync(join(dir, file)) ? (parse(readFileSync(join(dir, file), 'utf8')) as T) : undefined;
  return {
    testRun: load('testrun.yaml')!,
    configMap: load('configmap.yaml'),
    secret: load('secret.yaml'),
    files: readdirSync(dir).sort(),
    dir,
  };
}

/** Every (Secret, key) and (ConfigMap, key) the TestRun names, and whether the generated set has it. */
function danglingReferences(m: Manifests): string[] {
  const spec = m.testRun.spec as {
    script: { configMap?: { name: string; file: string } };
    runner: { env: EnvVar[] };
  };
  const missing: string[] = [];
  for (const v of spec.runner.env) {
    const ref = v.valueFrom?.secretKeyRef;
    if (!ref) continue;
    if (m.secret?.metadata.name !== ref.name || !(ref.key in m.secret.stringData))
      missing.push(`Secret ${ref.name} key ${ref.key}`);
  }
  const cm = spec.script.configMap;
  if (cm && (m.configMap?.metadata.name !== cm.name || !(cm.file in m.configMap.data)))
    missing.push(`ConfigMap ${cm.name} key ${cm.file}`);
  return missing;
}

/**
 * k6-operator v1.6.0 splits `arguments` on whitespace and its initializer runs `k6 archive` with them,
 * minus `-o X`/`--out X` (pkg/types/k6cli.go): a word that is not a flag and follows no flag is refused.
 */
function operatorArgumentProblems(argumentsText: string): string[] {
  const words = argumentsText.split(/\s+/).filter(Boolean);
  const problems: string[] = [];
  if (!words[0]?.startsWith('-')) problems.push(`first word "${words[0]}" is not a flag`);
  for (const word of words) {
    if (/^--out=|^-o\S/.test(word))
      problems.push(`"${word}": the initializer keeps this out form for k6 archive`);
    if (/["'`$\\;&|<>()]/.test(word)) problems.push(`"${word}" would change meaning under sh -c`);
  }
  return problems;
}

describe('k8s manifests for k6-operator', function () {
  this.timeout(180_000);
  let bundleDir: string;
  const outDir = () => mkdtempSync(join(tmpdir(), 'loadlab-k8s-'));
  const run = async (argv: string[], env: NodeJS.ProcessEnv = ENV) => {
    const dir = outDir();
    const line = await generate([...argv, '--out', dir], env, {
      bundleDir,
      now: new Date('2026-11-24T18:50:00Z'),
    });
    return { line, ...readManifests(dir) };
  };
  const refusal = async (argv: string[], env: NodeJS.ProcessEnv = ENV): Promise<string> => {
    try {
      await generate([...argv, '--out', outDir()], env, { bundleDir });
    } catch (error) {
      assert.ok(error instanceof UsageError, String(error));
      assert.doesNotMatch(error.message, /\n/, 'one line');
      return error.message;
    }
    assert.fail(`accepted: ${argv.join(' ')}`);
  };

  before(async () => {
    bundleDir = mkdtempSync(join(tmpdir(), 'loadlab-k8s-bundles-'));
    await bundleSuite(suiteEntryPoints(), bundleDir);
  });

  it('the schema check refuses what the API server would: wrong types, enums, unknown fields, names', () => {
    const good = {
      apiVersion: 'k6.io/v1alpha1',
      kind: 'TestRun',
      metadata: { name: 'ok' },
      spec: { parallelism: 2, script: { configMap: { name: 'c', file: 'a.js' } } },
    };
    assert.deepEqual(testRunProblems(good), []);
    const bad = structuredClone(good) as unknown as {
      metadata: { name: string };
      spec: Record<string, unknown>;
    };
    bad.metadata.name = 'Not_A_Name';
    Object.assign(bad.spec, {
      parallelism: '2',
      cleanup: 'always',
      runner: { enviroment: [], resources: { limits: { cpu: 'lots' } } },
    });
    const problems = testRunProblems(bad).join('\n');
    for (const expected of [
      /\/spec\/parallelism must be integer/,
      /\/spec\/cleanup must be equal to one of the allowed values/,
      /\/spec\/runner must NOT have additional properties: enviroment/,
      /\/spec\/runner\/resources\/limits\/cpu must match pattern/,
      /\/metadata\/name "Not_A_Name" is not a DNS subdomain/,
    ])
      assert.match(problems, expected);
    assert.match(
      testRunProblems({ ...good, spec: { parallelism: 1 } }).join(),
      /must have required property 'script'/,
    );
  });

  it('every scenario: a TestRun the CRD schema accepts, whose Secret and ConfigMap keys all exist', async () => {
    for (const scenario of suiteScenarios()) {
      const m = await run([scenario, '--parallelism', '2', '--profile', 'load']);
      assert.deepEqual(testRunProblems(m.testRun), [], scenario);
      assert.deepEqual(danglingReferences(m), [], scenario);
      assert.deepEqual(m.files, ['configmap.yaml', 'secret.yaml', 'testrun.yaml']);
      const bundleFile = `${scenario.split('/').pop()}.js`;
      assert.equal(m.configMap!.data[bundleFile], readFileSync(join(bundleDir, `${scenario}.js`), 'utf8'));
      assert.ok(m.configMap!.data[`${bundleFile}.map`], 'the source map rides along');
      // ConfigMaps hold at most 1 MiB; keys are file names the volume shows under /test.
      assert.ok(Buffer.byteLength(JSON.stringify(m.configMap!.data)) < 1024 * 1024, scenario);
      for (const key of Object.keys(m.configMap!.data)) assert.match(key, /^[-._a-zA-Z0-9]+$/);
      assert.equal(statSync(join(m.dir, 'secret.yaml')).mode & 0o777, 0o600, 'the Secret file is yours only');
    }
  });

  it('carries the profile, the testid, the InfluxDB output and the token from the Secret', async () => {
    const m = await run(['scenarios/load/mixed-traffic', '--parallelism', '5', '--profile', 'stress']);
    const spec = m.testRun.spec as {
      parallelism: number;
      arguments: string;
      runner: { image: string; env: EnvVar[]; resources: Record<string, unknown> };
    };
    assert.equal(m.testRun.metadata.name, 'loadlab-mixed-traffic-stress');
    assert.equal(spec.parallelism, 5);
    assert.equal(
      spec.arguments,
      '-e LT_PROFILE=stress --tag testid=20261124T185000Z-mixed-traffic -o xk6-influxdb=http://influxdb:8086',
    );
    assert.deepEqual(operatorArgumentProblems(spec.arguments), []);
    assert.equal(spec.runner.image, 'loadlab-k6:local');
    const env = Object.fromEntries(spec.runner.env.map((v) => [v.name, v]));
    assert.equal(env.BASE_URL!.value, 'http://sandbox:5050');
    assert.deepEqual(env.K6_INFLUXDB_TOKEN!.valueFrom, {
      secretKeyRef: { name: SECRET_NAME, key: 'K6_INFLUXDB_TOKEN' },
    });
    assert.equal(m.secret!.stringData.K6_INFLUXDB_TOKEN, ENV.INFLUXDB_ADMIN_TOKEN);
    assert.equal(m.secret!.stringData.ADMIN_USER, 'admin', 'the default of .env.example');
    assert.deepEqual(env.LT_INSTANCE!.valueFrom, { fieldRef: { fieldPath: 'metadata.name' } });
    assert.deepEqual(spec.runner.resources, {
      requests: { cpu: '1', memory: '1Gi' },
      limits: { cpu: '1', memory: '1Gi' },
    });
    // No secret value in the TestRun or the ConfigMap: only in secret.yaml.
    for (const file of ['testrun.yaml', 'configmap.yaml']) {
      const text = readFileSync(join(m.dir, file), 'utf8');
      for (const secret of Object.values(ENV)) assert.ok(!text.includes(secret), `${secret} in ${file}`);
    }
    assert.match(
      m.line,
      /^k8s:manifests: wrote configmap.yaml, secret.yaml, testrun.yaml to .*: TestRun loadlab-mixed-traffic-stress, 5 runner\(s\) sharing 100 VUs/,
    );
  });

  it('options: the image bundle, separate, cleanup, namespace, resources, URLs, a results volume', async () => {
    const m = await run([
      'dist/k6/scenarios/smoke/api-health.js',
      '--parallelism=2',
      '--profile=smoke',
      '--script',
      'image',
      '--separate',
      '--cleanup',
      'post',
      '--namespace',
      'loadtest',
      '--cpu',
      '500m',
      '--memory',
      '256Mi',
      '--base-url',
      'http://192.168.49.1:5050/',
      '--influxdb-url',
      'http://192.168.49.1:8086',
      '--image',
      'registry.local:5000/loadlab-k6:1.3.0',
      '--testid',
      'night-run-1',
      '--results-claim',
      'k6-results',
    ]);
    assert.deepEqual(testRunProblems(m.testRun), []);
    assert.deepEqual(danglingReferences(m), []);
    assert.deepEqual(m.files, ['secret.yaml', 'testrun.yaml'], 'no ConfigMap: the image has the bundle');
    const spec = m.testRun.spec as Record<string, unknown> & {
      script: { localFile: string };
      runner: {
        image: string;
        env: EnvVar[];
        volumes: unknown[];
        volumeMounts: unknown[];
        securityContext: unknown;
      };
    };
    assert.equal(spec.script.localFile, `${IMAGE_SUITE_DIR}/scenarios/smoke/api-health.js`);
    assert.equal(spec.separate, true);
    assert.equal(spec.cleanup, 'post');
    assert.equal(m.testRun.metadata.namespace, 'loadtest');
    assert.equal(
      spec.arguments,
      '-e LT_PROFILE=smoke --tag testid=night-run-1 -o xk6-influxdb=http://192.168.49.1:8086',
    );
    assert.equal(spec.runner.image, 'registry.local:5000/loadlab-k6:1.3.0');
    assert.equal(spec.runner.env.find((v) => v.name === 'BASE_URL')!.value, 'http://192.168.49.1:5050');
    assert.deepEqual(spec.runner.volumes, [
      { name: 'results', persistentVolumeClaim: { claimName: 'k6-results' } },
    ]);
    assert.deepEqual(spec.runner.volumeMounts, [{ name: 'results', mountPath: '/home/k6/results' }]);
    assert.deepEqual(spec.runner.securityContext, { fsGroup: 12345 }, 'the volume is writable for k6');
    assert.match(readFileSync(join(REPO, 'stack/k6.Dockerfile'), 'utf8'), /adduser -D -u 12345 /);
    // The Dockerfile copies dist/k6 to /home/k6/suite, so the local file is the bundle built here.
    assert.match(
      readFileSync(join(REPO, 'stack/k6.Dockerfile'), 'utf8'),
      /COPY --from=bundles \/src\/dist\/k6 \/home\/k6\/suite/,
    );
    assert.ok(existsSync(join(bundleDir, 'scenarios/smoke/api-health.js')));
  });

  it('--no-secret writes no Secret (and removes one an earlier call left); the references are listed in the README', async () => {
    const dir = outDir();
    writeFileSync(join(dir, 'secret.yaml'), 'stale');
    await generate(
      ['scenarios/smoke/api-health', '--parallelism', '1', '--profile', 'ci', '--no-secret', '--out', dir],
      {},
      { bundleDir },
    );
    const m = readManifests(dir);
    assert.deepEqual(m.files, ['configmap.yaml', 'testrun.yaml']);
    const readme = readFileSync(join(REPO, 'stack/k8s/README.md'), 'utf8');
    for (const v of (m.testRun.spec as { runner: { env: EnvVar[] } }).runner.env)
      if (v.valueFrom?.secretKeyRef)
        assert.ok(readme.includes(`--from-literal=${v.valueFrom.secretKeyRef.key}=`), v.name);
  });

  it('example/testrun.yaml is what the command writes for the arguments it names', async () => {
    const committed = readFileSync(join(REPO, 'stack/k8s/example/testrun.yaml'), 'utf8');
    const m = await run(EXAMPLE_ARGS);
    assert.deepEqual(m.files, ['testrun.yaml']);
    // Compared as data: prettier (npm run format) requotes the committed copy.
    assert.deepEqual(parse(committed), m.testRun, 'regenerate: see the command in stack/k8s/README.md');
    assert.ok(readFileSync(join(REPO, 'stack/k8s/README.md'), 'utf8').includes(EXAMPLE_ARGS.join(' ')));
  });

  it("the README's kubectl command for --no-secret makes the keys the TestRun reads", async function () {
    if (!onPath('kubectl')) {
      console.warn('      skipped: kubectl is not installed');
      return this.skip();
    }
    const readme = readFileSync(join(REPO, 'stack/k8s/README.md'), 'utf8');
    const command = /^kubectl create secret generic [^\n]*(\n {2}[^\n]*)*/m
      .exec(readme)![0]
      .replace(/\\\n/g, ' ');
    const made = await runCommand('sh', ['-c', `${command} --dry-run=client -o json`], {
      cwd: process.cwd(),
      env: { HOME: tmpdir(), ...ENV },
    });
    assert.equal(made.code, 0, made.stderr);
    const secret = JSON.parse(made.stdout) as { metadata: { name: string }; data: Record<string, string> };
    const m = await run(['scenarios/smoke/api-health', '--parallelism', '1', '--profile', 'smoke']);
    assert.equal(secret.metadata.name, m.secret!.metadata.name);
    const decoded = Object.fromEntries(
      Object.entries(secret.data).map(([k, v]) => [k, Buffer.from(v, 'base64').toString()]),
    );
    assert.deepEqual(decoded, m.secret!.stringData);
  });

  it('refuses bad arguments in one line', async () => {
    const ok = ['scenarios/smoke/api-health', '--parallelism', '1', '--profile', 'smoke'];
    const cases: Array<[string[], RegExp]> = [
      [[], /^name one scenario; usage: npm run k8s:manifests/],
      [
        ['scenarios/smoke/nope', '--parallelism', '1', '--profile', 'smoke'],
        /^unknown scenario "scenarios\/smoke\/nope"; one of: .*scenarios\/smoke\/api-health/,
      ],
      [['scenarios/smoke/api-health', '--profile', 'smoke'], /^--parallelism is required/],
      [['scenarios/smoke/api-health', '--parallelism', '1'], /^--profile is required/],
      [[...ok.slice(0, 2), '0', ...ok.slice(3)], /^--parallelism "0" must be a whole number from 1 to 100/],
      [[...ok.slice(0, 2), '2.5', ...ok.slice(3)], /^--parallelism "2.5"/],
      [
        [...ok.slice(0, 4), 'lod'],
        /^--profile "lod" is not a profile \(smoke, load, ci, stress, spike, soak, breakpoint\)/,
      ],
      [[...ok, '--cleanup', 'pre'], /^--cleanup "pre": the operator knows only "post"/],
      [[...ok, '--script', 'pvc'], /^--script "pvc" must be configmap/],
      [[...ok, '--base-url', 'sandbox:5050 x'], /^--base-url "sandbox:5050 x"/],
      [[...ok, '--influxdb-url', 'ftp://x'], /^--influxdb-url "ftp:\/\/x" must be an http\(s\) URL/],
      [[...ok, '--cpu', 'lots'], /^--cpu "lots" is not a Kubernetes quantity/],
      [[...ok, '--memory', '0'], /^--memory "0"/],
      [[...ok, '--namespace', 'Load_Test'], /^--namespace "Load_Test" must be a DNS label/],
      [[...ok, '--testid', 'a b'], /^--testid "a b" may hold/],
      [[...ok, '--image', 'a;rm'], /^--image "a;rm" is not an image reference/],
      [[...ok, '--vus', '3'], /^unknown flag --vus/],
      [[...ok, '--cpu'], /^--cpu needs a value/],
      [
        ['scenarios/smoke/api-health', '--parallelism', '3', '--profile', 'smoke'],
        /^--parallelism 3 is too many for scenarios\/smoke\/api-health under profile smoke: .* largest scenario has 2 VUs, so 1 runner\(s\) would have none/,
      ],
    ];
    for (const [argv, expected] of cases) assert.match(await refusal(argv), expected, argv.join(' '));
    assert.match(
      await refusal(ok, { DEMO_EMAIL: 'x', INFLUXDB_ADMIN_TOKEN: '<token>' }),
      /^missing DEMO_PASSWORD, ADMIN_PASSWORD, INFLUXDB_ADMIN_TOKEN for the Secret .*--no-secret/,
    );
  });

  it('the generator counts VUs as the scenarios declare them (several scenarios add up)', async () => {
    const secured = await scenarioVus(join(bundleDir, 'scenarios/clinic/secured-api.js'), 'load');
    assert.deepEqual(
      secured.map((s) => [s.name, s.maxVus]),
      [
        ['owners_reader', 2],
        ['vets_reader', 1],
        ['anonymous_probe', 1],
      ],
    );
    assert.equal(totalVus(secured), 4);
    assert.equal(
      runnersWithVus(secured, 3),
      2,
      'the 1-VU scenarios land where owners_reader has its first VU',
    );
    assert.equal(
      totalVus(await scenarioVus(join(bundleDir, 'scenarios/stress/api-breakpoint.js'), 'breakpoint')),
      125,
    );
  });

  it('the command: one line and exit 2 on a bad argument, exit 0 and one line on success', async () => {
    const cli = (args: string[], env: Record<string, string>) =>
      runScript('stack/k8s/manifests.ts', args, {
        cwd: REPO,
        env: { HOME: tmpdir(), ...env },
        timeoutMs: 60_000,
      });
    const bad = await cli(['scenarios/smoke/api-health', '--parallelism', 'two', '--profile', 'smoke'], ENV);
    assert.equal(bad.code, 2, bad.stderr);
    assert.equal(bad.stdout, '');
    assert.match(bad.stderr, /^k8s:manifests: --parallelism "two" must be a whole number from 1 to 100\n$/);
    const dir = outDir();
    // The command reads dist/k6, which npm test (and npm run k8s:manifests) builds first.
    const good = await cli(
      ['scenarios/smoke/api-health', '--parallelism', '2', '--profile', 'smoke', '--out', dir],
      ENV,
    );
    if (!existsSync(join(REPO, 'dist/k6/scenarios/smoke/api-health.js'))) {
      assert.equal(good.code, 2);
      assert.match(
        good.stderr,
        /^k8s:manifests: dist\/k6\/scenarios\/smoke\/api-health.js is missing: run npm run build:k6 first\n$/,
      );
      return;
    }
    assert.equal(good.code, 0, good.stderr);
    assert.equal(good.stdout.split('\n').filter(Boolean).length, 1, good.stdout);
    assert.deepEqual(testRunProblems(readManifests(dir).testRun), []);
  });
});
