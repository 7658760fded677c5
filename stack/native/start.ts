// `npm run stack:native`: the observability stack without a container engine. Starts the sandbox
// (5050) and the clinic (9966, 9967), and, where installed, InfluxDB 1.x (8086, database k6) and
// Prometheus (9090, the stack's prometheus.yml with loopback targets), all on 127.0.0.1 with data
// under .tmp/stack/. Ctrl-C stops everything it started.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { loadDotEnv, portFromEnv } from '@loadlab/services/start-and-stop';
import { influxQuery, startInfluxd } from '../../devkit/influxdb.js';
import { stopChild, type Daemon } from '../../devkit/processes.js';
import { onPath } from '../../devkit/command.js';
import {
  localPrometheusConfig,
  readStackPrometheusConfig,
  startPrometheus,
} from '../../devkit/prometheus.js';
import { waitForHealthy } from '../../devkit/wait-healthy.js';

/** Ports and data folder: the stack's defaults, each overridable (the test runs it on random ports). */
function settings(env: NodeJS.ProcessEnv) {
  const sandbox = portFromEnv(env.PORT, 5050, 'PORT');
  const clinic = portFromEnv(env.CLINIC_PORT, 9966, 'CLINIC_PORT');
  const clinicSecure = portFromEnv(env.CLINIC_SECURE_PORT, 9967, 'CLINIC_SECURE_PORT');
  return {
    dataDir: env.LOADLAB_STACK_DIR || join('.tmp', 'stack'),
    influxDb: env.INFLUXDB_BUCKET || 'k6',
    influxPort: portFromEnv(env.LOADLAB_INFLUXDB_PORT, 8086, 'LOADLAB_INFLUXDB_PORT'),
    influxRpcPort: portFromEnv(env.LOADLAB_INFLUXDB_RPC_PORT, 8088, 'LOADLAB_INFLUXDB_RPC_PORT'),
    prometheusPort: portFromEnv(env.LOADLAB_PROMETHEUS_PORT, 9090, 'LOADLAB_PROMETHEUS_PORT'),
    /** The compose targets of stack/prometheus.yml and where the native services listen. */
    prometheusTargets: {
      'sandbox:5050': `${HOST}:${sandbox}`,
      'clinic:9966': `${HOST}:${clinic}`,
      'clinic-secure:9967': `${HOST}:${clinicSecure}`,
    },
    services: [
      { name: 'sandbox', entry: 'services/sandbox/main.ts', health: [`http://${HOST}:${sandbox}/health`] },
      {
        name: 'clinic',
        entry: 'services/clinic/main.ts',
        health: [
          `http://${HOST}:${clinic}/petclinic/actuator/health`,
          `http://${HOST}:${clinicSecure}/petclinic/actuator/health`,
        ],
      },
    ],
  };
}
type Settings = ReturnType<typeof settings>;

const HOST = '127.0.0.1';

async function answers(urls: string[]): Promise<boolean> {
  return waitForHealthy(urls, { timeoutMs: 300 }).then(
    () => true,
    () => false,
  );
}

async function startService(service: Settings['services'][number]): Promise<ChildProcess | undefined> {
  if (await answers(service.health)) {
    console.log(`stack:native: ${service.name} already answers; using it`);
    return undefined;
  }
  const child = spawn(process.execPath, ['--import', 'tsx', service.entry], {
    stdio: ['ignore', 'inherit', 'inherit'],
    env: { ...process.env, HOST, CLINIC_HOST: HOST, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' },
  });
  const exited = new Promise<never>((_, reject) =>
    child.once('exit', (code) => reject(new Error(`${service.name} exited early with code ${code}`))),
  );
  await Promise.race([waitForHealthy(service.health, { timeoutMs: 30_000 }), exited]);
  exited.catch(() => undefined);
  console.log(`stack:native: ${service.name} up (${service.health.join(', ')})`);
  return child;
}

async function startInflux(config: Settings, log: NodeJS.WritableStream): Promise<Daemon | undefined> {
  if (!onPath('influxd')) {
    console.log('stack:native: influxd not installed (Debian package influxdb); skipping InfluxDB');
    return undefined;
  }
  const influx = await startInfluxd({
    dataDir: join(config.dataDir, 'influxdb'),
    httpPort: config.influxPort,
    rpcPort: config.influxRpcPort,
    logTo: log,
  });
  // k6 creates its database itself; creating it here lets Grafana/queries work before the first run.
  await influxQuery(influx.url, config.influxDb, `CREATE DATABASE "${config.influxDb}"`);
  console.log(
    `stack:native: InfluxDB ${influx.url} (database ${config.influxDb}); stream with -o influxdb=${influx.url}/${config.influxDb}`,
  );
  return influx;
}

async function startProm(config: Settings, log: NodeJS.WritableStream): Promise<Daemon | undefined> {
  if (!onPath('prometheus')) {
    console.log('stack:native: prometheus not installed (Debian package prometheus); skipping Prometheus');
    return undefined;
  }
  const prometheus = await startPrometheus({
    dataDir: join(config.dataDir, 'prometheus'),
    port: config.prometheusPort,
    config: localPrometheusConfig(readStackPrometheusConfig(), config.prometheusTargets),
    logTo: log,
  });
  console.log(`stack:native: Prometheus ${prometheus.url}`);
  return prometheus;
}

/**
 * Calls `stop` once this process is orphaned. `npm run` starts it under `sh -c`; a SIGTERM to npm
 * kills that shell without passing the signal on, which would leave influxd, Prometheus and the
 * services holding their ports. Ctrl-C in a terminal reaches the whole process group and needs none of this.
 */
function watchParent(stop: () => void): void {
  const parent = process.ppid;
  const timer = setInterval(() => {
    if (process.ppid === parent) return;
    clearInterval(timer);
    console.error('stack:native: the parent process is gone; stopping');
    stop();
  }, 500);
  timer.unref();
}

async function main(): Promise<void> {
  loadDotEnv();
  let config: Settings;
  try {
    config = settings(process.env);
  } catch (error) {
    console.error(`stack:native: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  }
  mkdirSync(config.dataDir, { recursive: true });
  const log = createWriteStream(join(config.dataDir, 'daemons.log'), { flags: 'a' });
  const children: ChildProcess[] = [];
  const daemons: Daemon[] = [];
  const stopAll = async () => {
    await Promise.all(daemons.map((d) => d.stop()));
    await Promise.all(children.map(stopChild));
  };
  let stopping = false;
  const onSignal = () => {
    if (stopping) return;
    stopping = true;
    console.log('stack:native: stopping');
    void stopAll().then(() => process.exit(0));
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  watchParent(onSignal);

  try {
    for (const service of config.services) {
      const child = await startService(service);
      if (child) children.push(child);
    }
    for (const start of [startInflux, startProm]) {
      const daemon = await start(config, log);
      if (daemon) daemons.push(daemon);
    }
  } catch (error) {
    console.error(`stack:native: ${error instanceof Error ? error.message : String(error)}`);
    await stopAll();
    process.exit(1);
  }
  for (const child of [...children, ...daemons.map((d) => d.child)]) {
    child.once('exit', (code) => {
      if (stopping) return;
      console.error(`stack:native: a process exited unexpectedly (code ${code}); stopping the rest`);
      onSignal();
    });
  }
  console.log(`stack:native: ready; daemon logs in ${join(config.dataDir, 'daemons.log')}; Ctrl-C stops all`);
}

void main();
