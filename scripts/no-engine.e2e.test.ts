// One cause, one exit code: every command that needs a container engine and finds none (a stand-in
// `docker` whose `info` fails) exits 3 and says so in one line. stack:doctor exited 1 where
// grafana:up and test:load:mixed:grafana exited 3 for the same missing engine.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCommand } from '../devkit/command.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('no container engine: exit 3 in every command', function () {
  this.timeout(60_000);
  let bin = '';
  before(() => {
    bin = mkdtempSync(join(tmpdir(), 'loadlab-no-engine-'));
    symlinkSync(join(ROOT, 'stack/fixtures/fake-docker.mjs'), join(bin, 'docker'));
  });
  after(() => rmSync(bin, { recursive: true, force: true }));

  const commands: [string, string, string[]][] = [
    ['grafana:up', 'stack/compose.sh', ['grafana-up']],
    ['test:load:mixed:grafana', 'stack/compose.sh', ['stream', 'scenarios/load/mixed-traffic', 'load']],
    ['stack:doctor', process.execPath, ['--import', 'tsx', 'scripts/stack-doctor.ts']],
    ['LT_ENGINE=docker test:smoke', 'scripts/run-k6.sh', ['k6/scenarios/smoke/api-health.ts']],
  ];
  for (const [name, file, args] of commands) {
    it(`${name}`, async () => {
      const r = await runCommand(file, args, {
        cwd: ROOT,
        env: {
          ...process.env,
          PATH: `${bin}:${process.env.PATH}`,
          FAKE_DOCKER_DOWN: '1',
          LT_ENGINE: 'docker',
          // stack:doctor's secret checks ask these; nothing listens on port 9.
          LOADLAB_STACK_INFLUXDB_URL: 'http://127.0.0.1:9',
          LOADLAB_STACK_GRAFANA_URL: 'http://127.0.0.1:9',
        },
        timeoutMs: 45_000,
      });
      assert.equal(r.code, 3, `${r.stdout}${r.stderr}`);
      assert.match(r.stderr.split('\n')[0] ?? '', /no container engine answers \('docker info' failed\)/);
    });
  }
});
