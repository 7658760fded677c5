// `npm run stack:verify` (and `npm run stack:screenshots`): checks a running compose stack against the
// last streamed run, one line per check, exit 1 when any failed, 2 on a usage or configuration error.
//   stack:verify [--screenshots [dir]]   the checks, then (with the flag) one PNG per dashboard
//   stack:screenshots [dir]              the screenshots alone (the checks that decide what must show data run quietly)
//   stack:verify --cloud <testid>        only: read a run streamed to InfluxDB Cloud back (K6_INFLUXDB_*)
// Addresses and secrets come from the environment or .env, as for compose: GRAFANA_ADMIN_USER,
// GRAFANA_ADMIN_PASSWORD, INFLUXDB_ADMIN_TOKEN, INFLUXDB_ORG, INFLUXDB_BUCKET, and
// LOADLAB_STACK_{GRAFANA,INFLUXDB,PROMETHEUS}_URL (default the ports compose publishes on 127.0.0.1).
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseEnv } from 'node:util';
import { isEntryPoint } from '@loadlab/services/start-and-stop';
import { builtDashboards, runChecks, type CheckResult, type VerifyConfig } from './checks.js';
import { cloudCheck, missingCloudVariables } from './cloud.js';
import { grafanaClient } from './grafana-api.js';
import { panelTitles } from './panel-requests.js';
import { gridRows, takeScreenshots } from './screenshots.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const DEFAULT_SCREENSHOTS = 'results/stack/screenshots';

export class UsageError extends Error {}

export interface CliOptions {
  checks: boolean;
  screenshotsDir?: string;
  cloudTestid?: string;
}

export function parseArgs(args: string[], screenshotsOnly: boolean): CliOptions {
  const options: CliOptions = { checks: !screenshotsOnly };
  const rest = [...args];
  if (screenshotsOnly) {
    if (rest.length > 1 || rest[0]?.startsWith('-')) throw new UsageError('usage: stack:screenshots [dir]');
    options.screenshotsDir = rest[0] ?? DEFAULT_SCREENSHOTS;
    return options;
  }
  while (rest.length) {
    const arg = rest.shift()!;
    if (arg === '--cloud') {
      const testid = rest.shift();
      if (!testid || testid.startsWith('-') || args.length !== 2)
        throw new UsageError('usage: stack:verify --cloud <testid> (and nothing else)');
      return { checks: false, cloudTestid: testid };
    }
    if (arg === '--screenshots') {
      options.screenshotsDir = rest[0] && !rest[0].startsWith('-') ? rest.shift()! : DEFAULT_SCREENSHOTS;
    } else
      throw new UsageError(
        `stack:verify: unknown argument ${arg} (usage: stack:verify [--screenshots [dir]] | --cloud <testid>)`,
      );
  }
  return options;
}

export function configFrom(env: Record<string, string | undefined>, root: string): VerifyConfig {
  const password = env.GRAFANA_ADMIN_PASSWORD;
  const token = env.INFLUXDB_ADMIN_TOKEN;
  const missing = [!password && 'GRAFANA_ADMIN_PASSWORD', !token && 'INFLUXDB_ADMIN_TOKEN'].filter(Boolean);
  if (missing.length)
    throw new UsageError(
      `stack:verify: ${missing.join(' and ')} not set (in .env, as for grafana:up; npm run env:init)`,
    );
  return {
    root,
    grafana: grafanaClient(
      env.LOADLAB_STACK_GRAFANA_URL ?? 'http://127.0.0.1:3000',
      env.GRAFANA_ADMIN_USER || 'admin',
      password!,
    ),
    influx: {
      url: env.LOADLAB_STACK_INFLUXDB_URL ?? 'http://127.0.0.1:8086',
      token: token!,
      org: env.INFLUXDB_ORG || 'loadlab',
      bucket: env.INFLUXDB_BUCKET || 'k6',
    },
    prometheusUrl: env.LOADLAB_STACK_PROMETHEUS_URL ?? 'http://127.0.0.1:9090',
    uid: process.getuid?.(),
  };
}

export function line(result: CheckResult): string {
  return `${result.ok ? 'ok  ' : 'FAIL'} ${result.name}: ${result.detail}`;
}

/**
 * The checks as a Markdown table, for GitHub's step summary, then the screenshots by file name (the
 * workflow uploads the folder as the stack-screenshots artifact).
 */
export function markdown(results: CheckResult[]): string {
  const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
  const failed = results.filter((r) => !r.ok).length;
  const shots = results.filter((r) => r.name === 'screenshots' || r.name.startsWith('screenshot '));
  return [
    `### stack:verify: ${failed ? `${failed} of ${results.length} checks failed` : `all ${results.length} checks passed`}`,
    '',
    '| | check | detail |',
    '| --- | --- | --- |',
    ...results.map((r) => `| ${r.ok ? '✅' : '❌'} | ${cell(r.name)} | ${cell(r.detail)} |`),
    '',
    ...(shots.length
      ? [
          '#### Screenshots (artifact `stack-screenshots`)',
          '',
          ...shots.map(
            (r) =>
              `- ${r.ok ? '✅' : '❌'} ${r.file ? `\`${basename(r.file)}\`` : `${cell(r.name)}: not taken`}`,
          ),
          '',
        ]
      : []),
  ].join('\n');
}

export async function main(
  argv: string[],
  env: Record<string, string | undefined>,
  root = ROOT,
): Promise<number> {
  const screenshotsOnly = argv[0] === 'screenshots';
  let options: CliOptions;
  let config: VerifyConfig;
  try {
    options = parseArgs(screenshotsOnly ? argv.slice(1) : argv, screenshotsOnly);
    if (options.cloudTestid) {
      const missing = missingCloudVariables(env);
      if (missing.length) throw new UsageError(`stack:verify --cloud: ${missing.join(', ')} not set`);
      const result = await cloudCheck(env, options.cloudTestid);
      console.log(line(result));
      if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown([result]));
      return result.ok ? 0 : 1;
    }
    config = configFrom(env, root);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(error.message);
    return 2;
  }
  const outcome = await runChecks(config, options.checks ? (r) => console.log(line(r)) : () => {});
  const results = options.checks ? [...outcome.results] : [];
  if (options.screenshotsDir) {
    if (!outcome.record || !outcome.window) {
      results.push({
        name: 'screenshots',
        ok: false,
        detail: 'not taken: no run record (stream a run first)',
      });
      console.log(line(results.at(-1)!));
    } else {
      const shots = await takeScreenshots({
        grafanaUrl: config.grafana.url,
        authorization: config.grafana.authorization,
        testid: outcome.record.testid,
        window: outcome.window,
        dashboards: builtDashboards(root).map((d) => ({
          uid: d.uid ?? '',
          panels: panelTitles(d, { rows: false }),
          empty: outcome.emptyPanels.get(d.uid ?? '') ?? new Set(),
          gridRows: gridRows(d),
        })),
        dir: resolve(root, options.screenshotsDir),
        env,
      });
      for (const shot of shots) {
        results.push(shot);
        console.log(line(shot));
      }
    }
  }
  if (env.GITHUB_STEP_SUMMARY) appendFileSync(env.GITHUB_STEP_SUMMARY, markdown(results));
  const failed = results.filter((r) => !r.ok).length;
  console.log(
    failed
      ? `stack:verify: ${failed} of ${results.length} checks failed`
      : `stack:verify: all ${results.length} checks passed`,
  );
  return failed ? 1 : 0;
}

function environment(root: string): Record<string, string | undefined> {
  const file = join(root, '.env');
  return { ...(existsSync(file) ? parseEnv(readFileSync(file, 'utf8')) : {}), ...process.env };
}

if (isEntryPoint(import.meta.url)) process.exitCode = await main(process.argv.slice(2), environment(ROOT));
