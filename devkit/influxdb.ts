// Runs a local InfluxDB 1.x (Debian's influxd) with a generated config: loopback only, data under a
// given directory, no usage reporting, no _internal monitoring database.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startDaemon } from './daemon.js';
import type { Daemon } from './processes.js';

export interface InfluxOptions {
  dataDir: string;
  httpPort: number;
  /** influxd also binds an RPC port for backup/restore; it must not collide either. */
  rpcPort: number;
  logTo?: NodeJS.WritableStream;
}

export function influxdConfig(options: InfluxOptions): string {
  const dir = (name: string) => JSON.stringify(join(options.dataDir, name));
  return [
    'reporting-disabled = true',
    `bind-address = "127.0.0.1:${options.rpcPort}"`,
    '[meta]',
    `  dir = ${dir('meta')}`,
    '[data]',
    `  dir = ${dir('data')}`,
    `  wal-dir = ${dir('wal')}`,
    '  query-log-enabled = false',
    '[monitor]',
    '  store-enabled = false',
    '[http]',
    `  bind-address = "127.0.0.1:${options.httpPort}"`,
    '  log-enabled = false',
    '[continuous_queries]',
    '  enabled = false',
    '',
  ].join('\n');
}

export async function startInfluxd(options: InfluxOptions): Promise<Daemon> {
  mkdirSync(options.dataDir, { recursive: true });
  const configPath = join(options.dataDir, 'influxdb.conf');
  writeFileSync(configPath, influxdConfig(options));
  const url = `http://127.0.0.1:${options.httpPort}`;
  return startDaemon('influxd', 'influxd', ['-config', configPath], url, `${url}/ping`, {
    logTo: options.logTo,
  });
}

export interface InfluxSeries {
  name: string;
  tags?: Record<string, string>;
  columns: string[];
  values: unknown[][];
}

/** Runs one InfluxQL statement through the 1.x HTTP API; throws on an HTTP or statement error. */
export async function influxQuery(url: string, db: string, query: string): Promise<InfluxSeries[]> {
  const body = new URLSearchParams({ db, q: query, epoch: 'ms' });
  const response = await fetch(`${url}/query`, { method: 'POST', body });
  const json = (await response.json()) as {
    results?: Array<{ series?: InfluxSeries[]; error?: string }>;
    error?: string;
  };
  const result = json.results?.[0];
  if (!response.ok || json.error || result?.error) {
    throw new Error(`InfluxQL failed (${response.status}): ${json.error ?? result?.error} in: ${query}`);
  }
  return result?.series ?? [];
}
