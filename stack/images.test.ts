// The images' contents without a container engine: the files each Dockerfile stage COPYs (after its
// .dockerignore) are assembled in a temp folder and run there as the image would run them, and every
// package the services import is a production dependency (the image installs only those).
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { assemble, copiedFiles, contextCopySources, inContext, parseDockerignore } from './docker-context.js';
import { freePort, pollUntil, stopChild } from './local/processes.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const pkg = JSON.parse(read('package.json')) as { dependencies: Record<string, string> };

/** Runs stack/healthcheck.mjs from `cwd` as the HEALTHCHECK does; resolves with its exit code. */
function healthcheck(cwd: string, args: string[], env: NodeJS.ProcessEnv = {}): number | null {
  const { HEALTHCHECK_URL: _ignored, ...base } = process.env;
  return spawnSync(process.execPath, ['stack/healthcheck.mjs', ...args], {
    cwd,
    env: { ...base, ...env },
    timeout: 10_000,
  }).status;
}

describe('.dockerignore rules as Docker applies them', () => {
  const rules = parseDockerignore(
    '*\n!package.json\n!services/\nservices/**/*.test.ts\n!stack/healthcheck.mjs\n',
  );

  it('sends only what is re-included, minus the excluded tests', () => {
    assert.equal(inContext('package.json', rules), true);
    assert.equal(inContext('services/sandbox/main.ts', rules), true);
    assert.equal(inContext('services/sandbox/app.test.ts', rules), false);
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
      // Asynchronous children: the server answers on this process's event loop, which spawnSync would block.
      const check = (args: string[], env: NodeJS.ProcessEnv = {}) =>
        new Promise<number | null>((resolve) => {
          const { HEALTHCHECK_URL: _ignored, ...inherited } = process.env;
          const child = spawn(process.execPath, ['stack/healthcheck.mjs', ...args], {
            cwd: ROOT,
            env: { ...inherited, ...env },
            stdio: 'ignore',
          });
          child.once('exit', (code) => resolve(code));
        });
      assert.equal(await check([`${base}/ok`]), 0);
      assert.equal(await check([`${base}/down`]), 1);
      assert.equal(await check([], { HEALTHCHECK_URL: `${base}/ok` }), 0);
      assert.equal(await check([]), 2);
    } finally {
      server.close();
    }
    assert.equal(healthcheck(ROOT, [`http://127.0.0.1:${await freePort()}/`]), 1);
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

  it('holds the services, the healthcheck and no tests', () => {
    assert.ok(files.includes('services/sandbox/main.ts') && files.includes('services/clinic/main.ts'));
    assert.ok(files.includes('stack/healthcheck.mjs'));
    assert.deepEqual(
      files.filter((f) => f.endsWith('.test.ts')),
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
      const notProduction = [...packages].filter((name) => !(name in pkg.dependencies));
      assert.deepEqual(notProduction, [], 'imported packages missing from "dependencies"');
      // The CMD runs the TypeScript through tsx, so it must be a production dependency too.
      assert.ok('tsx' in pkg.dependencies);
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
      const child = spawn(process.execPath, ['--import', 'tsx', target.entry], {
        cwd: dir,
        env: { ...process.env, NODE_ENV: 'production', ...target.env(port) },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let stderr = '';
      child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
      try {
        const url = `http://127.0.0.1:${port}`;
        await pollUntil(
          `${target.name} from ${dir}`,
          async () => {
            if (child.exitCode !== null) throw new Error(`exited ${child.exitCode}: ${stderr}`);
            return (await fetch(`${url}${target.paths[0]}`)).ok ? true : undefined;
          },
          30_000,
        ).catch((error: Error) => assert.fail(`${error.message}\n${stderr}`));
        for (const path of target.paths) {
          assert.equal((await fetch(`${url}${path}`)).status, 200, path);
        }
        assert.equal(healthcheck(dir, [`${url}${target.paths[0]}`]), 0);
      } finally {
        await stopChild(child);
      }
    });
  }
});

describe('stack/k6.Dockerfile bundle stage', function () {
  this.timeout(120_000);

  it('builds every bundle compose.sh runs from the files it copies', () => {
    const files = copiedFiles(ROOT, read('stack/k6.Dockerfile'), read('stack/k6.Dockerfile.dockerignore'));
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-k6-image-'));
    try {
      assemble(ROOT, files, dir);
      symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
      // The stage's `npm run build:k6`, run as the npm script does.
      const result = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/build-k6.ts'], {
        cwd: dir,
        encoding: 'utf8',
        timeout: 100_000,
      });
      assert.equal(result.status, 0, `${result.stdout}${result.stderr}`);
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
