// Naming and finding run files: `results/runs/<run-id>-<scenario>.json` (handleSummary data) and
// `.ndjson` (time series). Run ids are UTC timestamps, so sorting them sorts runs by time.
import { readdir, readFile, stat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { ReportInputError } from './errors.js';
import type { RunInput } from './model.js';

const RUN_FILE = /^(\d{8}T\d{6}Z)-(.+)$/;
/**
 * The suite's handleSummary files (k6/lib/summary.ts): `summary-<scenario>-<profile>-<time>[-<instance>]`,
 * one run each, e.g. what `npm run test:ci` leaves in results/. `summary-latest` is a copy of one of them.
 */
const HANDLE_SUMMARY_FILE = /^summary-(.+)-(\d{4})-(\d{2})-(\d{2})T(\d{2})-(\d{2})-(\d{2})Z(?:-[\w.-]+)?$/;
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
    const named = runOfStem(c.stem);
    const input = byStem.get(c.stem) ?? { scenario: named?.scenario ?? c.stem, runId: named?.runId };
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

/** Run id and scenario of a file stem named by run (`<run-id>-<scenario>` or a handleSummary file). */
function runOfStem(stem: string): { runId: string; scenario: string } | undefined {
  const m = RUN_FILE.exec(stem);
  if (m) return { runId: m[1] as string, scenario: m[2] as string };
  const h = HANDLE_SUMMARY_FILE.exec(stem);
  if (h) return { runId: `${h[2]}${h[3]}${h[4]}T${h[5]}${h[6]}${h[7]}Z`, scenario: h[1] as string };
  return undefined;
}

/** Report files in `dir` that belong to a named run, with their run ids. */
async function namedRunFiles(dir: string): Promise<{ path: string; runId: string }[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  return names.flatMap((name) => {
    const c = classify(name);
    const runId = c ? runOfStem(c.stem)?.runId : undefined;
    return runId ? [{ path: join(dir, name), runId }] : [];
  });
}

/**
 * Drops handleSummary files that are byte-for-byte copies of a `<run-id>-<scenario>.json`: during
 * test:report the suite writes each scenario's summary to both (one JSON string, k6/lib/summary.ts),
 * and the copies are that run, not newer runs of their own.
 */
async function withoutCopies(
  files: { path: string; runId: string }[],
): Promise<{ path: string; runId: string }[]> {
  const isRunFile = (path: string) => RUN_FILE.test(basename(path));
  const runSummaries = files.filter((f) => isRunFile(f.path) && SUMMARY_EXT.test(f.path));
  if (runSummaries.length === 0) return files;
  const contents = new Set(
    await Promise.all(runSummaries.map((f) => readFile(f.path, 'utf8').catch(() => ''))),
  );
  const kept = await Promise.all(
    files.map(async (f) =>
      isRunFile(f.path) || !contents.has(await readFile(f.path, 'utf8').catch(() => '\u0000'))
        ? f
        : undefined,
    ),
  );
  return kept.filter((f): f is { path: string; runId: string } => f !== undefined);
}

/**
 * Expands directories to the files of their newest run: runs named by run id in the folder and in its
 * `runs/` (where test:report and npm run lab keep them), and the suite's timestamped handleSummary
 * files (one run each, as npm run test:ci leaves them). Only a folder with no named run at all gives
 * every report file in it. So `results/` means the newest real run, never a mix of runs.
 */
export async function expandInputs(args: readonly string[]): Promise<string[]> {
  const files: string[] = [];
  for (const arg of args) {
    const s = await stat(arg).catch(() => undefined);
    if (!s) throw new ReportInputError(`${arg}: no such file or directory`);
    if (!s.isDirectory()) {
      files.push(arg);
      continue;
    }
    const named = await withoutCopies([
      ...(await namedRunFiles(arg)),
      ...(await namedRunFiles(join(arg, 'runs'))),
    ]);
    const newest = named
      .map((f) => f.runId)
      .sort()
      .at(-1);
    const chosen = newest
      ? named.filter((f) => f.runId === newest).map((f) => f.path)
      : (await readdir(arg)).filter((n) => classify(n)).map((n) => join(arg, n));
    if (chosen.length === 0) throw new ReportInputError(`${arg}: no summary or NDJSON files in it`);
    files.push(...chosen.sort());
  }
  return files;
}

/**
 * The newest run in `runsDir` older than `runId` that has a summary (for one of `scenarios`, when given:
 * a run of other scenarios has nothing to compare with), as report inputs. Copies of a run's summaries
 * (the suite's timestamped files) are that run, not runs of their own.
 */
export async function findPreviousRun(
  runsDir: string,
  runId: string,
  scenarios?: readonly string[],
): Promise<{ runId: string; inputs: RunInput[] } | undefined> {
  const named = await withoutCopies(await namedRunFiles(runsDir));
  const scenarioOf = (path: string) => {
    const c = classify(basename(path));
    return c ? runOfStem(c.stem)?.scenario : undefined;
  };
  const withSummary = new Set(
    named
      .filter((f) => SUMMARY_EXT.test(f.path) && f.runId < runId)
      .filter((f) => !scenarios || scenarios.includes(scenarioOf(f.path) ?? ''))
      .map((f) => f.runId),
  );
  const previous = [...withSummary].sort().at(-1);
  if (!previous) return undefined;
  const inputs = groupInputs(named.filter((f) => f.runId === previous).map((f) => f.path));
  return { runId: previous, inputs };
}
