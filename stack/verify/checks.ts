// The checks of `npm run stack:verify`, in order, each reported as soon as it is decided: Grafana and
// what it provisioned, every panel query through Grafana for the last streamed run, Prometheus's
// targets, the run's points in InfluxDB 2 (Flux and the InfluxQL/DBRP path), the k6 container's exit
// and the ownership of its summaries.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import {
  framesHaveData,
  grafanaDashboard,
  grafanaDatasourceHealth,
  grafanaDatasources,
  grafanaDsQuery,
  grafanaHealth,
  type DashboardJson,
  type GrafanaClient,
} from './grafana-api.js';
import {
  fluxCountOfRun,
  fluxPointCount,
  influxql,
  influxqlString,
  measurementsOfRun,
  type InfluxTarget,
} from './influx2.js';
import {
  dsQueryRequest,
  expectsData,
  panelTargets,
  panelTitles,
  variablesFor,
  type PanelTarget,
  type Window,
} from './panel-requests.js';
import { activeTargets, metricsByJob } from './prometheus.js';
import {
  crossedThresholds,
  exitAgreesWithThresholds,
  readRunRecord,
  summaryFilesOfRun,
  thresholdCount,
  type RunRecord,
  type SummaryJson,
} from './run-record.js';

export interface VerifyConfig {
  root: string;
  grafana: GrafanaClient;
  influx: InfluxTarget;
  prometheusUrl: string;
  /** Who must own the summaries the k6 container wrote (the invoking user; compose.sh runs k6 as them). */
  uid: number | undefined;
}

export interface CheckResult {
  name: string;
  ok: boolean;
  detail: string;
  /** A file the check wrote (a screenshot's PNG), for the step summary to name. */
  file?: string;
}

/** What the screenshots need from the checks: the run's window and the panels expected empty. */
export interface VerifyOutcome {
  results: CheckResult[];
  record?: RunRecord;
  window?: Window;
  /** dashboard uid -> titles of panels none of whose queries can have data for this run. */
  emptyPanels: Map<string, Set<string>>;
}

/** Slack around the run's recorded seconds: k6's outputs flush after the last iteration. */
export const WINDOW_SLACK_MS = 60_000;

export function provisionedDatasources(root: string): Array<{ uid: string; type: string; name: string }> {
  const file = parse(readFileSync(join(root, 'provisioning/datasources/datasources.yml'), 'utf8')) as {
    datasources?: Array<{ uid: string; type: string; name: string }>;
  };
  return file.datasources ?? [];
}

export function builtDashboards(root: string): DashboardJson[] {
  const dir = join(root, 'dashboards/json');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as DashboardJson);
}

export async function runChecks(
  config: VerifyConfig,
  report: (result: CheckResult) => void = () => {},
): Promise<VerifyOutcome> {
  const results: CheckResult[] = [];
  const emptyPanels = new Map<string, Set<string>>();
  const add = (name: string, ok: boolean, detail: string) => {
    const result = { name, ok, detail };
    results.push(result);
    report(result);
  };
  const attempt = async (name: string, check: () => Promise<[boolean, string]>) => {
    try {
      const [ok, detail] = await check();
      add(name, ok, detail);
      return ok;
    } catch (error) {
      add(name, false, (error as Error).message.split('\n')[0] ?? '');
      return false;
    }
  };

  let record: RunRecord | undefined;
  await attempt('run record', async () => {
    record = readRunRecord(config.root);
    return [
      true,
      `testid ${record.testid} (${record.scenario}, profile ${record.profile}), ` +
        `${new Date(record.startedMs).toISOString()} to ${new Date(record.endedMs).toISOString()}, exit ${record.exitCode}`,
    ];
  });
  const window = record && {
    fromMs: record.startedMs - WINDOW_SLACK_MS,
    toMs: record.endedMs + WINDOW_SLACK_MS,
  };

  const grafanaUp = await attempt('grafana /api/health', async () => {
    const health = await grafanaHealth(config.grafana);
    return [
      health.status === 200 && health.database === 'ok',
      `HTTP ${health.status}, database ${health.database || '?'}, version ${health.version || '?'}`,
    ];
  });

  if (grafanaUp) {
    const listed = await grafanaDatasources(config.grafana).catch((e: Error) => e);
    for (const wanted of provisionedDatasources(config.root)) {
      await attempt(`grafana datasource ${wanted.uid}`, async () => {
        if (listed instanceof Error) throw listed;
        const found = listed.find((d) => d.uid === wanted.uid);
        if (!found)
          return [false, `not provisioned (Grafana lists ${listed.map((d) => d.uid).join(', ') || 'none'})`];
        if (found.type !== wanted.type)
          return [false, `type ${found.type}, provisioning says ${wanted.type}`];
        const health = await grafanaDatasourceHealth(config.grafana, wanted.uid);
        return [
          health.httpStatus === 200 && health.status === 'OK',
          `health ${health.status || `HTTP ${health.httpStatus}`}: ${health.message}`,
        ];
      });
    }
  } else add('grafana datasources and dashboards', false, 'not checked: Grafana did not answer /api/health');

  // What the run recorded decides which panels must show data.
  let measurements: Set<string> | undefined;
  let byJob: Map<string, Set<string>> | undefined;
  if (record && window) {
    const run = record;
    await attempt('influxdb measurements of the run (InfluxQL, DBRP)', async () => {
      measurements = await measurementsOfRun(config.influx, run.testid);
      const count = await influxql(
        config.influx,
        `SELECT count("value") FROM "iterations" WHERE "testid" = ${influxqlString(run.testid)}`,
      );
      const iterations = Number(count[0]?.values?.[0]?.[1] ?? 0);
      return [
        measurements.size > 0 && iterations > 0,
        `${measurements.size} measurements, ${iterations} iterations in bucket ${config.influx.bucket}`,
      ];
    });
    await attempt('influxdb points of the run (Flux, /api/v2/query)', async () => {
      const points = await fluxPointCount(
        config.influx,
        fluxCountOfRun(config.influx.bucket, run.testid, window.fromMs, window.toMs),
      );
      return [points > 0, `${points} points with testid ${run.testid}`];
    });
    await attempt('prometheus metrics by job', async () => {
      byJob = await metricsByJob(config.prometheusUrl, window);
      return [byJob.size > 0, [...byJob].map(([job, names]) => `${job} ${names.size}`).join(', ')];
    });
  } else add('influxdb points of the run', false, 'not checked: no run record');

  for (const built of builtDashboards(config.root)) {
    const uid = built.uid ?? '';
    if (!grafanaUp) break;
    const shown = await grafanaDashboard(config.grafana, uid).catch((e: Error) => e);
    await attempt(`grafana dashboard ${uid}`, async () => {
      if (shown instanceof Error) throw shown;
      if (shown.status !== 200 || !shown.dashboard) return [false, `HTTP ${shown.status}: not provisioned`];
      const want = panelTitles(built);
      const have = panelTitles(shown.dashboard);
      const missing = want.filter((t) => !have.includes(t));
      const extra = have.filter((t) => !want.includes(t));
      const ok = missing.length === 0 && extra.length === 0 && shown.meta.provisioned === true;
      return [
        ok,
        ok
          ? `"${shown.dashboard.title}", ${have.length} panels as dashboards/ builds them, provisioned in folder ${shown.meta.folderTitle ?? '?'}`
          : `missing [${missing.join(', ')}], unexpected [${extra.join(', ')}], provisioned ${shown.meta.provisioned}`,
      ];
    });
    if (!record || !window || !measurements || !byJob) {
      add(
        `grafana panels of ${uid}`,
        false,
        "not checked: no run record or the run's data could not be read",
      );
      continue;
    }
    const empty = new Set<string>();
    const variables = variablesFor(record.testid, window);
    // One request per panel with all its targets, as Grafana's frontend sends a panel's queries.
    const byPanel = new Map<string, PanelTarget[]>();
    for (const target of panelTargets(built))
      byPanel.set(target.panel, [...(byPanel.get(target.panel) ?? []), target]);
    for (const [panel, targets] of byPanel) {
      const expected = targets.map((t) =>
        expectsData(t, { measurements: measurements!, metricsByJob: byJob! }),
      );
      if (!expected.some(Boolean)) empty.add(panel);
      await attempt(`panel ${uid} / ${panel}`, async () => {
        const requests = targets.map((t) => dsQueryRequest(t, window, variables).request);
        const request = { ...requests[0]!, queries: requests.flatMap((r) => r.queries) };
        const { status, json } = await grafanaDsQuery(config.grafana, request);
        const wrong: string[] = [];
        const seen: string[] = [];
        targets.forEach((target, i) => {
          const result = json.results?.[target.refId];
          if (!result) return wrong.push(`${target.refId}: no result (HTTP ${status} ${json.message ?? ''})`);
          if (result.error) return wrong.push(`${target.refId}: ${result.error}`);
          const has = framesHaveData(result.frames);
          if (has === expected[i]) return seen.push(`${target.refId} ${has ? 'data' : 'empty as expected'}`);
          return wrong.push(
            expected[i]
              ? `${target.refId}: no data, though the run recorded what it reads`
              : `${target.refId}: data, though the run recorded none of what it reads`,
          );
        });
        return [wrong.length === 0, wrong.length ? wrong.join('; ') : seen.join(', ')];
      });
    }
    emptyPanels.set(uid, empty);
  }

  await attempt('prometheus scrape targets', async () => {
    const targets = await activeTargets(config.prometheusUrl);
    const jobs =
      (
        parse(readFileSync(join(config.root, 'stack/prometheus.yml'), 'utf8')) as {
          scrape_configs?: Array<{ job_name: string }>;
        }
      ).scrape_configs?.map((c) => c.job_name) ?? [];
    const problems = [
      ...jobs.filter((job) => !targets.some((t) => t.job === job)).map((job) => `${job}: no target`),
      ...targets
        .filter((t) => t.health !== 'up')
        .map((t) => `${t.job} ${t.scrapeUrl}: ${t.health} ${t.lastError}`),
    ];
    return [
      problems.length === 0,
      problems.length ? problems.join('; ') : `${targets.length} targets up (${jobs.join(', ')})`,
    ];
  });

  if (record) {
    const run = record;
    const files = (() => {
      try {
        return summaryFilesOfRun(config.root, run);
      } catch {
        return [];
      }
    })();
    const latest = files.find((f) => f.endsWith('/summary-latest.json'));
    await attempt('k6 exit code agrees with its thresholds', async () => {
      if (!latest)
        return [false, `no results/summary-latest.json written since the run began (exit ${run.exitCode})`];
      const summary = JSON.parse(readFileSync(latest, 'utf8')) as SummaryJson;
      const crossed = crossedThresholds(summary);
      const problem = exitAgreesWithThresholds(run.exitCode, crossed);
      return [
        !problem,
        problem ?? `exit ${run.exitCode}, ${crossed.length} of ${thresholdCount(summary)} thresholds crossed`,
      ];
    });
    await attempt('summary files belong to the user', async () => {
      if (files.length === 0)
        return [false, 'the k6 container wrote no results/summary-*.json during the run'];
      if (config.uid === undefined)
        return [true, `${files.length} files (no uid on this platform to compare)`];
      const foreign = files.filter((f) => statSync(f).uid !== config.uid);
      return [
        foreign.length === 0,
        foreign.length
          ? foreign
              .map((f) => `${f.slice(config.root.length + 1)} owned by uid ${statSync(f).uid}`)
              .join(', ')
          : `${files.length} files owned by uid ${config.uid}`,
      ];
    });
  }
  return { results, record, window, emptyPanels };
}
