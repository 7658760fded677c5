// Naming and finding run files: `results/runs/<run-id>-<scenario>.json` (handleSummary data) and
// `.ndjson` (time series). Run ids are UTC timestamps, so sorting them sorts runs by time.
import { readdir, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ReportInputError } from './errors.js';
import type { RunInput } from './model.js';

const RUN_FILE = /^(\d{8}T\d{6}Z)-(.+)$/;
const SERIES_EXT = /\.(ndjson|jsonl)(\.gz)?$/;
const SUMMARY_EXT = /\.json$/;

/** 2026-11-22T23:05:12.345Z -> 20261122T230512Z */
export function makeRunId(now = new Date()): string {
  return now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
}

interface Classified {
  stem: string;
  kind: 'summary' | 'series';
}

function classify(path: string): Classified | undefined {
  const name = basename(path);
  if (SERIES_EXT.test(name)) return { stem: name.replace(SERIES_EXT, ''), kind: 'series' };
  if (SUMMARY_EXT.test(name)) return { stem: name.replace(SUMMARY_EXT, ''), kind: 'summary' };
  return undefined;
}

/** Pairs summary and series files by name; scenario and run id come from `<run-id>-<scenario>` stems. */
export function groupInputs(files: readonly string[]): RunInput[] {
  const byStem = new Map<string, RunInput>();
  for (const file of files) {
    const c = classify(file);
    if (!c)
      throw new ReportInputError(
        `${file}: not a summary (.json) or time series (.ndjson, .ndjson.gz, .jsonl) file`,
      );
    const m = RUN_FILE.exec(c.stem);
    const input = byStem.get(c.stem) ?? { scenario: m ? (m[2] as string) : c.stem, runId: m?.[1] };
    if (c.kind === 'summary') input.summaryPath = file;
    else input.seriesPath = file;
    byStem.set(c.stem, input);
  }
  const inputs = [...byStem.values()];
  // One summary plus one series with different names (`summary.json points.ndjson` from a real k6 run)
  // are obviously the same run.
  const lonelySummaries = inputs.filter((i) => i.summaryPath && !i.seriesPath);
  const lonelySeries = inputs.filter((i) => i.seriesPath && !i.summaryPath);
  if (lonelySummaries.length === 1 && lonelySeries.length === 1) {
    (lonelySummaries[0] as RunInput).seriesPath = (lonelySeries[0] as RunInput).seriesPath;
    return inputs.filter((i) => i !== lonelySeries[0]);
  }
  return inputs;
}

/** Expands directories: the files of the newest run in them (or every report file when none is named by run id). */
export async function expandInputs(args: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    const s = await stat(arg).catch(() => undefined);
    if (!s) throw new ReportInputError(`${arg}: no such file or directory`);
    if (!s.isDirectory()) {
      files.push(arg);
      continue;
    }
    const names = (await readdir(arg)).filter((n) => classify(n));
    const ids = [...new Set(names.map((n) => RUN_FILE.exec(n)?.[1]).filter((x): x is string => !!x))].sort();
    const newest = ids.at(-1);
    const chosen = newest ? names.filter((n) => n.startsWith(`${newest}-`)) : names;
    if (chosen.length === 0) throw new ReportInputError(`${arg}: no summary or NDJSON files in it`);
    files.push(...chosen.sort().map((n) => join(arg, n)));
  }
  return files;
}

/** The newest run in `runsDir` older than `runId` that has at least one summary, as report inputs. */
export async function findPreviousRun(
  runsDir: string,
  runId: string,
): Promise<{ runId: string; inputs: RunInput[] } | undefined> {
  const names = await readdir(runsDir).catch(() => [] as string[]);
  const withSummary = new Set(
    names
      .filter((n) => SUMMARY_EXT.test(n))
      .map((n) => RUN_FILE.exec(n)?.[1])
      .filter((id): id is string => id !== undefined && id < runId),
  );
  const previous = [...withSummary].sort().at(-1);
  if (!previous) return undefined;
  const inputs = groupInputs(
    names.filter((n) => n.startsWith(`${previous}-`) && classify(n)).map((n) => join(runsDir, n)),
  );
  return { runId: previous, inputs };
}
