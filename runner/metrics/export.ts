// `--summary-export` (k6's oldJSONSummary): flattened values, thresholds as "failed" booleans,
// rate renamed to value, groups and checks keyed by name; pretty-printed with 4 spaces.
import type { CheckNode, GroupNode } from './group-tree.js';
import type { SummaryData } from '@loadlab/k6-format/summary';

interface ExportGroup {
  name: string;
  path: string;
  id: string;
  groups: Record<string, ExportGroup>;
  checks: Record<string, CheckNode>;
}

function exportGroup(group: GroupNode): ExportGroup {
  return {
    name: group.name,
    path: group.path,
    id: group.id,
    groups: Object.fromEntries(group.groups.map((g) => [g.name, exportGroup(g)])),
    checks: Object.fromEntries(group.checks.map((c) => [c.name, c])),
  };
}

export function toSummaryExport(data: SummaryData): Record<string, unknown> {
  const metrics: Record<string, Record<string, unknown>> = {};
  for (const [key, metric] of Object.entries(data.metrics)) {
    const flat: Record<string, unknown> = { ...metric.values };
    if (metric.type === 'rate') {
      flat.value = flat.rate;
      delete flat.rate;
    }
    if (metric.thresholds) {
      flat.thresholds = Object.fromEntries(Object.entries(metric.thresholds).map(([src, s]) => [src, !s.ok]));
    }
    metrics[key] = flat;
  }
  const out: Record<string, unknown> = { root_group: exportGroup(data.root_group), metrics };
  if ('setup_data' in data) out.setup_data = data.setup_data;
  return out;
}

export function summaryExportText(data: SummaryData): string {
  return JSON.stringify(toSummaryExport(data), null, 4);
}
