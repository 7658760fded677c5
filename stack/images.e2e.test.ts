// The images' contents without a container engine: the files each Dockerfile stage COPYs (after its
// .dockerignore) are assembled in a temp folder and run there as the image would run them, and every
// package the services import is a production dependency (the image installs only those).
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import {
  assemble,
  copiedFiles,
  contextCopySources,
  inContext,
  parseDockerignore,
} from './testing/docker-context.js';
import { simulate, stages } from './testing/dockerfile-model.js';
import { freePort } from '../devkit/processes.js';
import { runCommand } from '../devkit/command.js';
import { startProcess, untilHealthy } from '../devkit/script-process.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const servicesPkg = JSON.parse(read('services/package.json')) as { dependencies: Record<string, string> };

/**
 * Runs stack/healthcheck.mjs from `cwd` as the HEALTHCHECK does; resolves with its exit code.
 * Asynchronous: a server the test runs in this process keeps answering meanwhile.
 */
async function healthcheck(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<number | null> {
  const { HEALTHCHECK_URL: _ignored, ...base } = process.env;
  const { code } = await runCommand(process.execPath, ['stack/healthcheck.mjs', ...args], {
    cwd,
    env: { ...base, ...env },
    timeoutMs: 10_000,
  });
  return code;
}

describe('.dockerignore rules as Docker applies them', () => {
  const rules = parseDockerignore(
    '*\n!package.json\n!services/\nservices/**/*.test.ts\n!stack/healthcheck.mjs\n',
  );

  it('sends only what is re-included, minus the excluded tests', () => {
    assert.equal(inContext('package.json', rules), true);
    assert.equal(inContext('services/sandbox/main.ts', rules), true);
    assert.equal(inContext('services/sandbox/app.e2e.test.ts', rules), false);
    assert.equal(inContext('stack/healthcheck.mjs', rules), true);
    assert.equal(inContext('stack/compose.sh', rules), false);
    assert.equal(inContext('.env', rules), false);
    assert.equal(inContext('node_modules/tsx/package.json', rules), false);
  });

  it('reads the context COPY sources, not the --from ones', () => {
    assert.deepEqual(
      contextCopySources('COPY a b ./\nCOPY --from=deps /x /y\nCOPY --chown=n:n c /d\nRUN x'),
      ['a', 'b', 'c'],
    );
  });
});

describe('stack/healthcheck.mjs', function () {
  this.timeout(20_000);

  it('exits 0 on 2xx, 1 on an error status or no answer, 2 without a URL; reads HEALTHCHECK_URL', async () => {
    const { createServer } = await import('node:http');
    const server = createServer((req, res) => {
      res.statusCode = req.url === '/ok' ? 200 : 503;
      res.end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const base = `http://127.0.0.1:${port}`;
    try {
      const check = (args: string[], env: NodeJS.ProcessEnv = {}) => healthcheck(ROOT, args, env);
      assert.equal(await check([`${base}/ok`]), 0);
      assert.equal(await check([`${base}/down`]), 1);
      assert.equal(await check([], { HEALTHCHECK_URL: `${base}/ok` }), 0);
      assert.equal(await check([]), 2);
    } finally {
      server.close();
    }
    assert.equal(await healthcheck(ROOT, [`http://127.0.0.1:${await freePort()}/`]), 1);
  });
});

describe('stack/services.Dockerfile contents', function () {
  this.timeout(60_000);
  const files = copiedFiles(
    ROOT,
    read('stack/services.Dockerfile'),
    read('stack/services.Dockerfile.dockerignore'),
  );
  let dir = '';

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-services-image-'));
    assemble(ROOT, files, dir);
    // The image installs production dependencies; the next test proves nothing else is imported.
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the services, the healthcheck and no test code', () => {
    assert.ok(files.includes('services/sandbox/main.ts') && files.includes('services/clinic/main.ts'));
    assert.ok(files.includes('stack/healthcheck.mjs'));
    assert.deepEqual(
      files.filter((f) => /\.test\.ts$|\/test-[^/]+\.ts$|\/hostile\//.test(f)),
      [],
    );
  });

  it("installs the services package's production dependencies and nothing of the runner", async () => {
    // What `npm ci --omit=dev --workspace=services` installs: the tree npm lists for it.
    const listed = await runCommand(
      'npm',
      ['ls', '--workspace=services', '--omit=dev', '--all', '--parseable'],
      {
        cwd: ROOT,
        env: { ...process.env },
      },
    );
    assert.equal(listed.code, 0, listed.stderr);
    const names = new Set(
      listed.stdout
        .split('\n')
        .filter((line) => line.includes('node_modules/'))
        .map((line) => line.split('node_modules/').pop()!),
    );
    for (const name of Object.keys(servicesPkg.dependencies)) assert.ok(names.has(name), `${name} missing`);
    const runnerOnly = ['playwright-core', '@grpc/grpc-js', 'undici', 'cheerio', 'ws', 'protobufjs', 'mocha'];
    assert.deepEqual(
      runnerOnly.filter((name) => names.has(name)),
      [],
    );
  });

  for (const entry of ['services/sandbox/main.ts', 'services/clinic/main.ts']) {
    it(`${entry} imports only files inside the image and production dependencies`, async () => {
      const result = await build({
        entryPoints: [entry],
        absWorkingDir: ROOT,
        bundle: true,
        platform: 'node',
        format: 'esm',
        packages: 'external',
        write: false,
        metafile: true,
        logLevel: 'silent',
      });
      const inputs = Object.entries(result.metafile.inputs);
      const outside = inputs.map(([path]) => path).filter((path) => !files.includes(path));
      assert.deepEqual(outside, [], 'imported but not copied into the image');
      const packages = new Set(
        inputs
          .flatMap(([, input]) => input.imports)
          .filter((i) => i.external && !i.path.startsWith('node:'))
          .map((i) =>
            (i.path.startsWith('@') ? i.path.split('/').slice(0, 2) : i.path.split('/').slice(0, 1)).join(
              '/',
            ),
          ),
      );
      const notProduction = [...packages].filter((name) => !(name in servicesPkg.dependencies));
      assert.deepEqual(notProduction, [], 'imported packages missing from "dependencies"');
      // The CMD runs the TypeScript through tsx, so it must be a production dependency too.
      assert.ok('tsx' in servicesPkg.dependencies);
    });
  }

  const targets = [
    {
      name: 'sandbox',
      entry: 'services/sandbox/main.ts',
      env: (port: number) => ({
        HOST: '127.0.0.1',
        PORT: String(port),
        DEMO_EMAIL: 'image-test@loadlab.local',
        DEMO_PASSWORD: `pw-${process.pid}`,
        LOG_LEVEL: 'silent',
      }),
      paths: ['/health', '/web/login.html'],
    },
    {
      name: 'clinic',
      entry: 'services/clinic/main.ts',
      env: (port: number) => ({
        CLINIC_INSTANCE: 'open',
        CLINIC_HOST: '127.0.0.1',
        CLINIC_PORT: String(port),
        LOG_LEVEL: 'silent',
      }),
      paths: ['/petclinic/actuator/health', '/petclinic/api/vets', '/metrics'],
    },
  ];
  for (const target of targets) {
    it(`the ${target.name} target runs from the image's files and passes its HEALTHCHECK`, async () => {
      const port = await freePort();
      // tsx and the entry from the image's folder (not startScript's repository paths): the image is what runs.
      const child = startProcess(process.execPath, ['--import', 'tsx', target.entry], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production', ...target.env(port) },
      });
      try {
        const url = `http://127.0.0.1:${port}`;
        await untilHealthy(child, `${url}${target.paths[0]}`, 30_000).catch((error: Error) =>
          assert.fail(`${target.name} from ${dir}: ${error.message}\n${child.err()}`),
        );
        for (const path of target.paths) {
          assert.equal((await fetch(`${url}${path}`)).status, 200, path);
        }
        assert.equal(await healthcheck(dir, [`${url}${target.paths[0]}`]), 0);
      } finally {
        await child.stop();
      }
    });
  }
});

describe('stack/k6.Dockerfile bundle stage', function () {
  this.timeout(120_000);

  it('builds every bundle compose.sh runs from the files it copies', async () => {
    const files = copiedFiles(ROOT, read('stack/k6.Dockerfile'), read('stack/k6.Dockerfile.dockerignore'));
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-k6-image-'));
    try {
      assemble(ROOT, files, dir);
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      // The stage's `npm run build:k6`, run as the npm script does.
      const result = await runCommand(process.execPath, ['--import', 'tsx', 'scripts/build-k6.ts'], {
        cwd: dir,
        env: { ...process.env },
        timeoutMs: 100_000,
      });
      assert.equal(result.code, 0, `${result.stdout}${result.stderr}`);
      const named = [...read('stack/compose.sh').matchAll(/suite\/(scenarios\/[\w/-]+\.js)/g)].map(
        (m) => m[1]!,
      );
      assert.ok(named.length >= 3);
      for (const script of named) assert.ok(existsSync(join(dir, 'dist/k6', script)), `${script} not built`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('every Dockerfile stage, step by step as docker build runs it', () => {
  const dockerfiles = ['stack/services.Dockerfile', 'stack/k6.Dockerfile'];
  const contextOf = (file: string) => copiedFiles(ROOT, read(file), read(`${file}.dockerignore`));

  for (const file of dockerfiles) {
    it(`${file}: every RUN writes only into folders that exist, every COPY --from finds its source`, () => {
      const { problems, states } = simulate(read(file), contextOf(file));
      assert.deepEqual(problems, []);
      assert.deepEqual(
        [...states.keys()],
        stages(read(file)).map((s) => s.name),
      );
    });
  }

  it('the check itself finds the missing /out of an xk6 build, and a command it cannot read', () => {
    const text = read('stack/k6.Dockerfile').replace(/ && mkdir -p \/out \\\n/, '');
    assert.notEqual(text, read('stack/k6.Dockerfile'));
    const { problems } = simulate(text, contextOf('stack/k6.Dockerfile'));
    assert.deepEqual(
      problems.map((p) => p.message),
      ['xk6 build --output writes /out/k6, but /out does not exist'],
    );
    const unknown = simulate('FROM alpine:3.22\nRUN curl -o /x/y https://example.invalid\n', []);
    assert.match(unknown.problems[0]?.message ?? '', /^curl: the model does not know what it writes/);
  });

  it('the k6 image holds k6 on PATH, the bundles where compose.sh runs them, and a browser k6 finds', () => {
    const { states } = simulate(read('stack/k6.Dockerfile'), contextOf('stack/k6.Dockerfile'));
    const runtime = [...states.values()].at(-1)!;
    assert.equal(runtime.workdir, '/home/k6');
    for (const path of ['/usr/bin/k6', '/home/k6/suite', '/home/k6/results'])
      assert.ok(runtime.paths.has(path), path);
    // k6 v1.3 looks for chromium, chromium-browser, google-chrome... on PATH (chromium/browser_type.go).
    assert.ok(runtime.paths.has('/usr/bin/chromium-browser'));
    assert.match(runtime.env.K6_BROWSER_ARGS ?? '', /\bno-sandbox\b/);
    assert.equal(runtime.user, 'k6');
  });
});

describe('tool versions pinned in one place (stack/versions.env)', () => {
  const pins = Object.fromEntries(
    read('stack/versions.env')
      .split('\n')
      .filter((line) => /^[A-Z]/.test(line))
      .map((line) => line.split('=') as [string, string]),
  ) as Record<string, string>;

  it('the k6 Dockerfile defaults are the pins (a bare docker build gets the same k6)', () => {
    const k6Builder = stages(read('stack/k6.Dockerfile')).find((s) => s.name === 'k6-builder')!;
    const defaults = Object.fromEntries(
      k6Builder.instructions
        .filter((i) => i.keyword === 'ARG')
        .map((i) => i.args.split('=') as [string, string]),
    );
    for (const name of ['K6_VERSION', 'XK6_VERSION', 'XK6_OUTPUT_INFLUXDB_VERSION']) {
      assert.equal(defaults[name], pins[name], name);
    }
  });

  it('compose passes them as build args, and @types/k6 is of the same k6 minor', () => {
    const compose = read('stack/docker-compose.yml');
    for (const name of ['K6_VERSION', 'XK6_VERSION', 'XK6_OUTPUT_INFLUXDB_VERSION']) {
      assert.match(compose, new RegExp(`${name}: \\$\\{${name}:\\?`), name);
    }
    const dev = (JSON.parse(read('package.json')) as { devDependencies: Record<string, string> })
      .devDependencies;
    const [major, minor] = pins.K6_VERSION!.split('.');
    assert.match(dev['@types/k6'] ?? '', new RegExp(`^~${major}\\.${minor}\\.`));
  });

  it('the GitHub workflow installs that k6 (setup-k6-action k6-version from the same file)', () => {
    const workflow = read('.github/workflows/load-tests.yml');
    const setups = [
      ...workflow.matchAll(/uses: grafana\/setup-k6-action@\S+\n\s+with:\n\s+k6-version: (.+)/g),
    ];
    const uses = [...workflow.matchAll(/uses: grafana\/setup-k6-action/g)];
    assert.ok(uses.length >= 1);
    assert.equal(setups.length, uses.length, 'every setup-k6-action step names k6-version');
    for (const [, value] of setups) assert.equal(value, '${{ steps.versions.outputs.k6 }}');
    assert.match(workflow, /stack\/versions\.env/);
  });
});
