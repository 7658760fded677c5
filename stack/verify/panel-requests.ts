// Every panel target of a dashboard as the /api/ds/query request Grafana's frontend sends for it, for
// one run's window, and the rule for which of them must answer with data: the one the local query tests
// use (dashboards/influxql.e2e.test.ts, dashboards/promql.e2e.test.ts), data exactly where the metric was
// recorded. Template variables are filled as Grafana's frontend does before sending; the backend macros
// ($timeFilter, $__interval, $__rate_interval) are filled here too, so Grafana's backend receives a
// finished query and nothing depends on how it would expand them.
import { fillVariables, influxRegexValue, unfilledVariables } from '../../dashboards/queries.js';
import type { DashboardJson, DsQuery, DsQueryRequest } from './grafana-api.js';

export interface PanelTarget {
  panel: string;
  refId: string;
  datasource: { type: string; uid: string };
  /** InfluxQL `query` or PromQL `expr`, as the dashboard stores it. */
  text: string;
  target: Record<string, unknown>;
}

interface PanelJson {
  title?: string;
  type?: string;
  datasource?: { type?: string; uid?: string };
  targets?: Array<Record<string, unknown>>;
  panels?: PanelJson[];
}

export function panelTargets(dashboard: DashboardJson): PanelTarget[] {
  const found: PanelTarget[] = [];
  const visit = (panels: PanelJson[] = []) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) {
        const ds = (target.datasource ?? panel.datasource ?? {}) as { type?: string; uid?: string };
        found.push({
          panel: panel.title ?? '(untitled)',
          refId: String(target.refId ?? 'A'),
          datasource: { type: ds.type ?? '', uid: ds.uid ?? '' },
          text: String(target.query ?? target.expr ?? ''),
          target,
        });
      }
      visit(panel.panels);
    }
  };
  visit(dashboard.panels as PanelJson[] | undefined);
  return found;
}

/** Panel titles in dashboard order, rows included unless asked: "the panels dashboards/ builds". */
export function panelTitles(dashboard: DashboardJson, options = { rows: true }): string[] {
  const titles: string[] = [];
  const visit = (panels: PanelJson[] = []) => {
    for (const panel of panels) {
      if (options.rows || panel.type !== 'row') titles.push(panel.title ?? '(untitled)');
      visit(panel.panels);
    }
  };
  visit(dashboard.panels as PanelJson[] | undefined);
  return titles;
}

export interface Window {
  fromMs: number;
  toMs: number;
}

/** The panel's points for this window: about one per pixel of a 1000-pixel-wide panel, at least 1 s. */
export const MAX_DATA_POINTS = 1000;
export function intervalSeconds(window: Window): number {
  return Math.max(1, Math.ceil((window.toMs - window.fromMs) / 1000 / MAX_DATA_POINTS));
}

/**
 * Grafana's $__rate_interval: max($__interval + scrape interval, 4 x scrape interval), the scrape
 * interval being the datasource's timeInterval (5s in provisioning/datasources/datasources.yml).
 */
export function rateIntervalSeconds(interval: number, scrapeSeconds = 5): number {
  return Math.max(interval + scrapeSeconds, 4 * scrapeSeconds);
}

/** Every variable either dashboard uses, "All" for the multi-value ones (their allValue `.*`). */
export function variablesFor(testid: string, window: Window): Record<string, string> {
  const interval = intervalSeconds(window);
  return {
    testid: influxRegexValue(testid),
    scenario: '.*',
    job: '.*',
    timeFilter: `time >= ${window.fromMs}ms and time <= ${window.toMs}ms`,
    __interval: `${interval}s`,
    __interval_ms: String(interval * 1000),
    __rate_interval: `${rateIntervalSeconds(interval)}s`,
  };
}

/** The request for one panel target; throws when a variable would be left for Grafana to reject. */
export function dsQueryRequest(target: PanelTarget, window: Window, variables: Record<string, string>) {
  const text = fillVariables(target.text, variables);
  const left = unfilledVariables(text);
  if (left.length > 0) throw new Error(`${target.panel} ${target.refId}: no value for $${left.join(', $')}`);
  const field = 'query' in target.target ? 'query' : 'expr';
  const query: DsQuery = {
    ...target.target,
    refId: target.refId,
    datasource: target.datasource,
    [field]: text,
    intervalMs: intervalSeconds(window) * 1000,
    maxDataPoints: MAX_DATA_POINTS,
  };
  const request: DsQueryRequest = { from: String(window.fromMs), to: String(window.toMs), queries: [query] };
  return { text, request };
}

/** The measurements an InfluxQL query reads (`FROM "name"`, as every k6-dashboard query is written). */
export function influxMeasurements(query: string): string[] {
  return [...new Set([...query.matchAll(/\bFROM\s+"([^"]+)"/gi)].map((m) => m[1]!))];
}

/** The metric names a PromQL query reads (every selector of the services dashboard is `name{...}`). */
export function promMetrics(query: string): string[] {
  return [...new Set([...query.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map((m) => m[1]!))];
}

/**
 * Whether a query must show data. InfluxQL: the run recorded every measurement it reads. PromQL: some
 * job exposes every metric it reads (job=~".*" selects them all). Everything else is expected empty,
 * so a panel with data where none can be is caught as surely as an empty one.
 */
export function expectsData(
  target: PanelTarget,
  recorded: { measurements: Set<string>; metricsByJob: Map<string, Set<string>> },
): boolean {
  if (target.datasource.type === 'influxdb') {
    const reads = influxMeasurements(target.text);
    return reads.length > 0 && reads.every((m) => recorded.measurements.has(m));
  }
  const reads = promMetrics(target.text);
  return (
    reads.length > 0 && [...recorded.metricsByJob.values()].some((names) => reads.every((m) => names.has(m)))
  );
}
