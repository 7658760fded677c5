import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runScript } from '../devkit/command.js';
import {
  checkBundles,
  checkCompose,
  checkPorts,
  checkSecrets,
  checkSecretsMatch,
  format,
  portFree,
} from './stack-doctor.js';

describe('stack:doctor', () => {
  it('compose older than 2.20 (depends_on.required, run --build) is a problem; newer is fine', () => {
    assert.deepEqual(checkCompose({ ok: true, out: '2.29.1' }), []);
    assert.deepEqual(checkCompose({ ok: true, out: 'v2.20.0' }), []);
    assert.match(
      checkCompose({ ok: true, out: '2.17.3' })[0]?.problem ?? '',
      /2\.17\.3 is older than 2\.20\.0/,
    );
    assert.match(checkCompose({ ok: false, out: '' })[0]?.problem ?? '', /not installed/);
  });

  it('names each taken port unless the stack itself holds them', async () => {
    const free = async (port: number) => port !== 8086;
    assert.deepEqual(
      (await checkPorts([3000, 8086], free, false)).map((p) => p.problem),
      ['port 8086 is taken by another program'],
    );
    assert.deepEqual(await checkPorts([3000, 8086], free, true), []);
  });

  it('a port is taken whichever loopback or wildcard address holds it, IPv6 localhost included', async () => {
    for (const host of ['127.0.0.1', '0.0.0.0', '::1']) {
      const server = createServer();
      const listening = await new Promise<boolean>((resolve) => {
        server.once('error', () => resolve(false)); // a machine without IPv6
        server.listen(0, host, () => resolve(true));
      });
      if (!listening) continue;
      const { port } = server.address() as AddressInfo;
      try {
        assert.equal(await portFree(port), false, `held on ${host}`);
      } finally {
        await new Promise((resolve) => server.close(resolve));
      }
      assert.equal(await portFree(port), true, `released on ${host}`);
    }
  });

  it('every secret the compose file requires must be in .env, except the pins compose.sh sets', () => {
    const compose = 'a: ${DEMO_PASSWORD:?x}\nb: ${INFLUXDB_ADMIN_TOKEN:?y}\nc: ${K6_VERSION:?z}\n';
    assert.deepEqual(format(checkSecrets(compose, { DEMO_PASSWORD: 'p', INFLUXDB_ADMIN_TOKEN: ' ' })), [
      'stack:doctor: INFLUXDB_ADMIN_TOKEN is not set in .env; run npm run env:init',
    ]);
  });

  it('says in one line when InfluxDB or Grafana refuse the secrets of .env (a volume from an older .env)', async () => {
    const server = createServer((req, res) => {
      const ok =
        req.headers.authorization === 'Token right' || req.headers.authorization?.startsWith('Basic ');
      res.writeHead(ok ? 200 : 401).end();
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const env = { LOADLAB_STACK_INFLUXDB_URL: url, LOADLAB_STACK_GRAFANA_URL: 'http://127.0.0.1:9' };
      assert.deepEqual(await checkSecretsMatch({ ...env, INFLUXDB_ADMIN_TOKEN: 'right' }), []);
      const [line, ...rest] = format(await checkSecretsMatch({ ...env, INFLUXDB_ADMIN_TOKEN: 'rotated' }));
      assert.deepEqual(rest, []);
      assert.match(line ?? '', /InfluxDB answers 401 to INFLUXDB_ADMIN_TOKEN .*npm run docker:reset/);
    } finally {
      server.close();
    }
  });

  it('bundles and the k6 image older than the suite sources are problems', () => {
    const root = mkdtempSync(join(tmpdir(), 'loadlab-doctor-'));
    try {
      mkdirSync(join(root, 'k6/lib'), { recursive: true });
      mkdirSync(join(root, 'dist/k6'), { recursive: true });
      writeFileSync(join(root, 'dist/k6/a.js'), '');
      writeFileSync(join(root, 'k6/lib/a.ts'), '');
      const old = new Date(Date.now() - 60_000);
      utimesSync(join(root, 'dist/k6/a.js'), old, old);
      assert.deepEqual(
        checkBundles(root, old.getTime()).map((p) => p.problem),
        [
          'dist/k6 is older than the suite sources in k6/',
          'the loadlab-k6:local image predates your k6/ changes',
        ],
      );
      writeFileSync(join(root, 'dist/k6/a.js'), '');
      assert.deepEqual(checkBundles(root, Date.now() + 1000), []);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('the command prints one line per problem and exits 3 when no engine answers (as compose.sh)', async function () {
    this.timeout(30_000);
    const bin = mkdtempSync(join(tmpdir(), 'loadlab-doctor-bin-'));
    symlinkSync(new URL('../stack/fixtures/fake-docker.mjs', import.meta.url).pathname, join(bin, 'docker'));
    try {
      const result = await runScript('scripts/stack-doctor.ts', [], {
        cwd: process.cwd(),
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          FAKE_DOCKER_DOWN: '1',
          LOADLAB_STACK_INFLUXDB_URL: 'http://127.0.0.1:9',
          LOADLAB_STACK_GRAFANA_URL: 'http://127.0.0.1:9',
        },
      });
      assert.equal(result.code, 3, result.stderr);
      assert.match(
        result.stderr.split('\n')[0]!,
        /^stack:doctor: no container engine answers .*; start Docker, or use npm run stack:native$/,
      );
    } finally {
      rmSync(bin, { recursive: true, force: true });
    }
  });
});
