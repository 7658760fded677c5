// `npm run stack:native` end to end on random loopback ports: services, influxd and Prometheus come
// up with the stack's configuration, Prometheus scrapes every service, and Ctrl-C stops all of it.
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, pollUntil } from '../stack/local/processes.js';
import { hasTool } from '../stack/tools.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

describe('stack:native', function () {
  this.timeout(90_000);
  let child: ChildProcess | undefined;
  let dataDir = '';
  let output = '';
  const ports: Record<string, number> = {};

  before(async function () {
    const missing = ['influxd', 'prometheus'].filter((tool) => !hasTool(tool));
    if (missing.length > 0) {
      console.warn(`      skipped: ${missing.join(', ')} not installed (./scripts/setup.sh installs them)`);
      this.skip();
    }
    for (const name of [
      'PORT',
      'CLINIC_PORT',
      'CLINIC_SECURE_PORT',
      'LOADLAB_INFLUXDB_PORT',
      'LOADLAB_INFLUXDB_RPC_PORT',
      'LOADLAB_PROMETHEUS_PORT',
    ]) {
      ports[name] = await freePort();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'loadlab-stack-native-'));
    const password = `pw-${process.pid}-${Date.now()}`;
    child = spawn(process.execPath, ['--import', 'tsx', 'scripts/stack-native.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        ...Object.fromEntries(Object.entries(ports).map(([k, v]) => [k, String(v)])),
        LOADLAB_STACK_DIR: dataDir,
        DEMO_EMAIL: 'stack-native@loadlab.local',
        DEMO_PASSWORD: password,
        ADMIN_USER: 'admin',
        ADMIN_PASSWORD: password,
        LOG_LEVEL: 'silent',
      },
    });
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    await pollUntil('the ready line', async () => (output.includes('ready;') ? true : undefined), 60_000);
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGKILL');
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts InfluxDB with the k6 database on the given port', async () => {
    const url = `http://127.0.0.1:${ports.LOADLAB_INFLUXDB_PORT}`;
    const response = await fetch(`${url}/query?q=${encodeURIComponent('SHOW DATABASES')}`);
    const body = (await response.json()) as { results: Array<{ series: Array<{ values: string[][] }> }> };
    assert.ok(body.results[0]?.series[0]?.values.flat().includes('k6'), JSON.stringify(body));
  });

  it('Prometheus scrapes the sandbox and both clinic instances', async () => {
    const url = `http://127.0.0.1:${ports.LOADLAB_PROMETHEUS_PORT}`;
    const health = await pollUntil(
      'three healthy targets',
      async () => {
        const response = await fetch(`${url}/api/v1/targets`);
        const body = (await response.json()) as {
          data: { activeTargets: Array<{ labels: { job: string }; health: string }> };
        };
        const targets = body.data.activeTargets.map((t) => `${t.labels.job}:${t.health}`).sort();
        return targets.every((t) => t.endsWith(':up')) && targets.length === 3 ? targets : undefined;
      },
      30_000,
    );
    assert.deepEqual(health, ['clinic-secure:up', 'clinic:up', 'sandbox:up']);
  });

  it('Ctrl-C stops everything it started', async () => {
    const exited = new Promise<number | null>((resolve) => child!.once('exit', (code) => resolve(code)));
    child!.kill('SIGINT');
    assert.equal(await exited, 0, output);
    for (const port of [ports.PORT, ports.LOADLAB_INFLUXDB_PORT, ports.LOADLAB_PROMETHEUS_PORT]) {
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`), `port ${port} still answers`);
    }
  });
});
