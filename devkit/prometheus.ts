// Runs a local Prometheus (Debian's) with the stack's own prometheus.yml, whose targets are compose
// service names, rewritten to loopback addresses: the same jobs, paths and labels as in the stack.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { startDaemon } from './daemon.js';
import type { Daemon } from './processes.js';

export const STACK_PROMETHEUS_YML = new URL('../stack/prometheus.yml', import.meta.url);

interface ScrapeConfig {
  job_name: string;
  static_configs?: Array<{ targets: string[]; labels?: Record<string, string> }>;
}
interface PrometheusConfig {
  global?: Record<string, unknown>;
  scrape_configs?: ScrapeConfig[];
}

/**
 * Replaces each `service:port` target by the address in `targets` (keyed by the compose
 * `service:port`); an unknown target is an error so a renamed service cannot silently scrape nothing.
 */
export function localPrometheusConfig(
  stackYaml: string,
  targets: Record<string, string>,
  overrides: { scrapeInterval?: string } = {},
): string {
  const config = parse(stackYaml) as PrometheusConfig;
  for (const job of config.scrape_configs ?? []) {
    for (const group of job.static_configs ?? []) {
      group.targets = group.targets.map((target) => {
        const local = targets[target];
        if (!local) throw new Error(`no local address for ${job.job_name} target ${target}`);
        return local;
      });
    }
  }
  if (overrides.scrapeInterval) {
    config.global = {
      ...config.global,
      scrape_interval: overrides.scrapeInterval,
      evaluation_interval: overrides.scrapeInterval,
    };
  }
  return stringify(config);
}

export function readStackPrometheusConfig(): string {
  return readFileSync(STACK_PROMETHEUS_YML, 'utf8');
}

export interface PrometheusOptions {
  dataDir: string;
  port: number;
  config: string;
  logTo?: NodeJS.WritableStream;
}

export async function startPrometheus(options: PrometheusOptions): Promise<Daemon> {
  mkdirSync(join(options.dataDir, 'tsdb'), { recursive: true });
  const configPath = join(options.dataDir, 'prometheus.yml');
  writeFileSync(configPath, options.config);
  const url = `http://127.0.0.1:${options.port}`;
  const args = [
    `--config.file=${configPath}`,
    `--storage.tsdb.path=${join(options.dataDir, 'tsdb')}`,
    `--web.listen-address=127.0.0.1:${options.port}`,
    '--log.level=warn',
  ];
  return startDaemon('prometheus', 'prometheus', args, url, `${url}/-/ready`, { logTo: options.logTo });
}

export interface PromSeries {
  metric: Record<string, string>;
  values: Array<[number, string]>;
}

/** Runs a PromQL range query over the last `seconds`; throws on an HTTP or query error. */
export async function promRangeQuery(
  url: string,
  expr: string,
  seconds: number,
  stepSeconds = 1,
): Promise<PromSeries[]> {
  const end = Date.now() / 1000;
  const body = new URLSearchParams({
    query: expr,
    start: String(end - seconds),
    end: String(end),
    step: String(stepSeconds),
  });
  const response = await fetch(`${url}/api/v1/query_range`, { method: 'POST', body });
  const json = (await response.json()) as { status: string; error?: string; data?: { result: PromSeries[] } };
  if (!response.ok || json.status !== 'success') throw new Error(`PromQL failed: ${json.error} in: ${expr}`);
  return json.data?.result ?? [];
}
