// k6's handleSummary `data` (the legacy shape, k6.md §1.2): reading it safely and pulling out the
// parts a report shows. Nothing here depends on which engine produced the file.
import { readFile } from 'node:fs/promises';
import type { SummaryData, SummaryGroup } from '@loadlab/k6-format/summary';
import { ReportInputError } from './errors.js';
import { fromSummaryExport, looksLikeSummaryExport } from './summary-export.js';

export type { SummaryCheck, SummaryData, SummaryGroup, SummaryMetric } from '@loadlab/k6-format/summary';

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Validates the parts the report relies on; throws ReportInputError with a one-line reason. */
export function parseSummary(text: string, source: string): SummaryData {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new ReportInputError(`${source}: not JSON (${(e as Error).message})`);
  }
  if (!isObject(raw) || !isObject(raw.metrics))
    throw new ReportInputError(`${source}: no "metrics" object; expected k6 handleSummary data`);
  // k6's --summary-export file is the same run in k6's older shape: read it too.
  if (looksLikeSummaryExport(raw)) return fromSummaryExport(raw, source);
  const first = Object.values(raw.metrics)[0];
  if (first !== undefined && (!isObject(first) || !('values' in first)))
    throw new ReportInputError(`${source}: metrics have no "values"; expected k6 handleSummary data`);
  if (!isObject(raw.state) || typeof raw.state.testRunDurationMs !== 'number')
    throw new ReportInputError(`${source}: no state.testRunDurationMs; expected k6 handleSummary data`);
  const root = isObject(raw.root_group)
    ? raw.root_group
    : { name: '', path: '', id: '', groups: [], checks: [] };
  return { ...(raw as unknown as SummaryData), root_group: root as unknown as SummaryGroup };
}

export async function readSummary(path: string): Promise<SummaryData> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (e) {
    throw new ReportInputError(
      `cannot read ${path}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
    );
  }
  return parseSummary(text, path);
}

export interface CheckRow {
  group: string; // group path, '' for checks outside any group
  name: string;
  passes: number;
  fails: number;
}

/** Every check with its group path, depth-first in the order k6 first saw them. */
export function flattenChecks(group: SummaryGroup, out: CheckRow[] = []): CheckRow[] {
  for (const c of group.checks ?? [])
    out.push({ group: group.path ?? '', name: c.name, passes: c.passes, fails: c.fails });
  for (const g of group.groups ?? []) flattenChecks(g, out);
  return out;
}

/** Threshold definitions in the summary: [metric key, source, ok], metrics sorted by name for stable output. */
export function summaryThresholds(data: SummaryData): { metric: string; source: string; ok: boolean }[] {
  const out: { metric: string; source: string; ok: boolean }[] = [];
  for (const metric of Object.keys(data.metrics).sort()) {
    const t = data.metrics[metric]?.thresholds;
    if (!t) continue;
    for (const [source, state] of Object.entries(t)) out.push({ metric, source, ok: state.ok });
  }
  return out;
}
