// `npm run stack:native` end to end on random loopback ports: services, influxd and Prometheus come
// up with the stack's configuration, Prometheus scrapes every service, and Ctrl-C (or the death of the
// `npm run` above it) stops all of it.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { onPath, runCommand } from '../../devkit/command.js';
import { freePort, pollUntil } from '../../devkit/processes.js';
import { startProcess, untilOutput, type ScriptProcess } from '../../devkit/script-process.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

const PORT_VARIABLES = [
  'PORT',
  'CLINIC_PORT',
  'CLINIC_SECURE_PORT',
  'LOADLAB_INFLUXDB_PORT',
  'LOADLAB_INFLUXDB_RPC_PORT',
  'LOADLAB_PROMETHEUS_PORT',
] as const;

interface NativeStack {
  /** The process that gets the signals: stack/native/start.ts itself, or the shell `npm run` would put above it. */
  proc: ScriptProcess;
  ports: Record<(typeof PORT_VARIABLES)[number], number>;
  dataDir: string;
  output(): string;
}

/** Starts `stack:native` on random loopback ports and waits for its ready line. */
async function startNative(options: { underShell?: boolean } = {}): Promise<NativeStack> {
  const ports = {} as NativeStack['ports'];
  for (const name of PORT_VARIABLES) ports[name] = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'loadlab-stack-native-'));
  const password = `pw-${process.pid}-${Date.now()}`;
  const command = [process.execPath, '--import', 'tsx', 'stack/native/start.ts'];
  // `sh -c '...; true'` keeps the shell as the parent (no exec), as under `npm run`.
  const [file, args] = options.underShell
    ? ['sh', ['-c', `${command.map((part) => `'${part}'`).join(' ')}; true`]]
    : [command[0]!, command.slice(1)];
  const proc = startProcess(file, args, {
    cwd: ROOT,
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
  await untilOutput(proc, /ready;/, 60_000);
  return { proc, ports, dataDir, output: () => proc.output() };
}

/** Resolves once nothing answers on any of the ports any more. */
async function portsFreed(ports: number[], timeoutMs: number): Promise<void> {
  await pollUntil(
    `ports ${ports.join(', ')} to close`,
    async () => {
      const answering = await Promise.all(
        ports.map((port) =>
          fetch(`http://127.0.0.1:${port}/`).then(
            () => true,
            () => false,
          ),
        ),
      );
      return answering.some(Boolean) ? undefined : true;
    },
    timeoutMs,
  );
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function skipWithoutDaemons(context: Mocha.Context): void {
  const missing = ['influxd', 'prometheus'].filter((tool) => !onPath(tool));
  if (missing.length > 0) {
    console.warn(`      skipped: ${missing.join(', ')} not installed (./scripts/setup.sh installs them)`);
    context.skip();
  }
}

describe('stack:native', function () {
  this.timeout(90_000);
  let stack: NativeStack | undefined;

  before(async function () {
    skipWithoutDaemons(this);
    stack = await startNative();
  });

  after(() => {
    void stack?.proc.stop('SIGKILL');
    if (stack) rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it('starts InfluxDB with the k6 database on the given port', async () => {
    const url = `http://127.0.0.1:${stack!.ports.LOADLAB_INFLUXDB_PORT}`;
    const response = await fetch(`${url}/query?q=${encodeURIComponent('SHOW DATABASES')}`);
    const body = (await response.json()) as { results: Array<{ series: Array<{ values: string[][] }> }> };
    assert.ok(body.results[0]?.series[0]?.values.flat().includes('k6'), JSON.stringify(body));
  });

  it('Prometheus scrapes the sandbox and both clinic instances', async () => {
    const url = `http://127.0.0.1:${stack!.ports.LOADLAB_PROMETHEUS_PORT}`;
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
    const { proc, ports } = stack!;
    assert.equal(await proc.stop('SIGINT'), 0, stack!.output());
    for (const port of [ports.PORT, ports.LOADLAB_INFLUXDB_PORT, ports.LOADLAB_PROMETHEUS_PORT]) {
      await assert.rejects(fetch(`http://127.0.0.1:${port}/`), `port ${port} still answers`);
    }
  });
});

describe('stack:native when its parent dies (npm run killed with SIGTERM)', function () {
  this.timeout(90_000);
  let stack: NativeStack | undefined;

  before(async function () {
    skipWithoutDaemons(this);
    stack = await startNative({ underShell: true });
  });

  let nativePid: number | undefined;

  after(() => {
    if (!stack) return;
    // Should the test fail, the orphaned stack/native/start.ts (found by its pid, never by name) must not outlive it.
    if (nativePid && isAlive(nativePid)) process.kill(nativePid, 'SIGINT');
    rmSync(stack.dataDir, { recursive: true, force: true });
  });

  it('stops every service and daemon instead of leaving them on their ports', async () => {
    const { proc, ports } = stack!;
    const children = await runCommand('pgrep', ['-P', String(proc.child.pid)], {
      cwd: process.cwd(),
      env: { ...process.env },
    });
    nativePid = Number(children.stdout.trim());
    assert.ok(nativePid > 0 && isAlive(nativePid), 'stack/native/start.ts runs under the shell');
    await proc.stop('SIGKILL'); // the shell dies without passing anything on, as when npm is terminated
    await portsFreed(
      Object.values(ports).filter((port) => port !== ports.LOADLAB_INFLUXDB_RPC_PORT),
      15_000,
    );
    await pollUntil(
      'stack/native/start.ts to exit',
      async () => (isAlive(nativePid!) ? undefined : true),
      5_000,
    );
    assert.match(stack!.output(), /the parent process is gone; stopping/);
  });
});
