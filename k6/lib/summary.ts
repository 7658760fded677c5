// handleSummary for every scenario: the full k6 data as JSON (latest, timestamped, and the path
// the report runner asks for), plus the readable text on stdout. No k6 imports: pure and tested.
import type { SummaryData } from './summary-data.js';
import { renderSummaryText } from './summary-text.js';

/** `2026-11-22T22:55:01.123Z` -> `2026-11-22T22-55-01Z`: sortable and safe in file names everywhere. */
export function fileTimestamp(date: Date): string {
  return date
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/:/g, '-');
}

/** `./results//x.json` -> `results/x.json`, so two spellings of one file are seen as one. */
export function normalizePath(path: string): string {
  return path
    .replace(/\/{2,}/g, '/')
    .replace(/(^|\/)(\.\/)+/g, '$1')
    .replace(/^\.\//, '');
}

/**
 * `-<LT_INSTANCE>` when set, else nothing. Every pod of a distributed run (stack/k8s) runs handleSummary
 * on its own share of the test at the same second; on a shared volume their files would overwrite each
 * other, so the manifests set LT_INSTANCE to the pod's name.
 */
export function instanceSuffix(env: Record<string, string | undefined>): string {
  const instance = (env.LT_INSTANCE ?? '').trim();
  return instance ? `-${instance.replace(/[^\w.-]+/g, '_')}` : '';
}

/** `dir/x.json` + `-pod-1` -> `dir/x-pod-1.json` (appended when the name has no extension). */
function withSuffix(path: string, suffix: string): string {
  const dot = path.lastIndexOf('.');
  return dot > path.lastIndexOf('/') + 1
    ? `${path.slice(0, dot)}${suffix}${path.slice(dot)}`
    : `${path}${suffix}`;
}

/**
 * One entry per file. LT_RUN_SUMMARY (the report runner's per-run copy) is added only when it is
 * a different file: the latest summary has exactly one writer (the original project wrote it twice).
 */
export function summaryFiles(
  data: SummaryData,
  labels: { scenario: string; profile: string },
  env: Record<string, string | undefined>,
  now: Date,
): Record<string, string> {
  const json = JSON.stringify(data, null, 2);
  // LT_RESULTS_DIR lets `test:report --results DIR` keep every file of a run under DIR.
  const dir = normalizePath(env.LT_RESULTS_DIR || 'results').replace(/\/$/, '');
  const suffix = instanceSuffix(env);
  const files: Record<string, string> = {
    [`${dir}/summary-latest${suffix}.json`]: json,
    [`${dir}/summary-${labels.scenario}-${labels.profile}-${fileTimestamp(now)}${suffix}.json`]: json,
    stdout: renderSummaryText(data, labels),
  };
  // Which engine ran (scripts/run-k6.sh's line), beside each summary, for a report of a run without a kept log.
  if (env.LT_ENGINE_LINE) {
    for (const path of Object.keys(files).filter((p) => p.endsWith('.json')))
      files[path.replace(/\.json$/, '.engine')] = `${env.LT_ENGINE_LINE}\n`;
  }
  const extra = env.LT_RUN_SUMMARY ? withSuffix(normalizePath(env.LT_RUN_SUMMARY), suffix) : '';
  if (extra && !(extra in files)) files[extra] = json;
  return files;
}

/** The scenario label: LT_SCENARIO when set (the report runner names runs), else the script's own. */
export function scenarioLabel(own: string, env: Record<string, string | undefined>): string {
  const label = env.LT_SCENARIO || own;
  return label.replace(/[^\w.-]+/g, '_');
}
