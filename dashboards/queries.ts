// Reads panel queries back out of dashboard JSON and fills in Grafana's template variables the way
// Grafana would before sending them, so tests can run each query against a real InfluxDB/Prometheus.

export interface PanelQuery {
  panel: string;
  refId: string;
  datasourceUid: string;
  text: string;
}

interface TargetJson {
  refId?: string;
  datasource?: { uid?: string };
  query?: string;
  expr?: string;
}
interface PanelJson {
  title?: string;
  type?: string;
  datasource?: { uid?: string };
  targets?: TargetJson[];
  panels?: PanelJson[];
}

/** Every target of every panel (rows included), with its query text (InfluxQL `query` or PromQL `expr`). */
export function panelQueries(dashboard: { panels?: unknown[] }): PanelQuery[] {
  const found: PanelQuery[] = [];
  const visit = (panels: PanelJson[] = []) => {
    for (const panel of panels) {
      for (const target of panel.targets ?? []) {
        found.push({
          panel: panel.title ?? '(untitled)',
          refId: target.refId ?? '',
          datasourceUid: target.datasource?.uid ?? panel.datasource?.uid ?? '',
          text: target.query ?? target.expr ?? '',
        });
      }
      visit(panel.panels);
    }
  };
  visit(dashboard.panels as PanelJson[] | undefined);
  return found;
}

/** Escapes a value for use inside an InfluxQL /regex/, as Grafana does for single values. */
export function influxRegexValue(value: string): string {
  return value.replace(/[\\^$*+?.()|[\]{}/]/g, '\\$&');
}

export function fillVariables(text: string, values: Record<string, string>): string {
  // Longest names first so `$__interval_ms` is never cut short by `$__interval`.
  const names = Object.keys(values).sort((a, b) => b.length - a.length);
  let filled = text;
  for (const name of names) filled = filled.split(`$${name}`).join(values[name] ?? '');
  return filled;
}

/** Names of `$variables` still left in a query (a missed variable would make the query invalid). */
export function unfilledVariables(text: string): string[] {
  return [...text.matchAll(/\$(\w+)/g)].map((m) => m[1] ?? '');
}
