// One script on real k6 and on the runner at once, each with its NDJSON and InfluxDB outputs, and
// the shapes of what each wrote (run-shape.ts): what the differential and conformance tests compare.
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { runLoadlab, runThroughRunK6, type RunResult } from '../../devkit/loadlab-run.js';
import type { InfluxCapture } from './influx-capture.js';
import {
  diffShapes,
  lineProtocolShape,
  ndjsonShape,
  normalizeFileName,
  summaryShape,
  type RunShape,
  type SummaryData,
} from './run-shape.js';

export type Engine = 'k6' | 'node';

export interface SideBySideOptions {
  script: string;
  args?: string[];
  env?: Record<string, string>;
  influx: InfluxCapture;
  /** Compare check counts, counter counts and tag values (false for scripts that pick at random). */
  counts?: boolean;
  /**
   * `suite`: through scripts/run-k6.sh as the npm scripts run it, the suite's summary files in the
   * run's results folder. `plain`: the engine itself in the run's folder; the script's handleSummary
   * writes its data to $SUMMARY_JSON.
   */
  mode: 'suite' | 'plain';
  timeoutMs?: number;
}

export interface EngineRun {
  engine: Engine;
  dir: string;
  result: RunResult;
  /** The handleSummary data, when the run wrote it. */
  data?: SummaryData;
  shape: RunShape;
}

let runs = 0;

async function runOne(engine: Engine, opts: SideBySideOptions): Promise<EngineRun> {
  const dir = mkdtempSync(join(tmpdir(), `loadlab-side-${engine}-`));
  const results = join(dir, 'results');
  mkdirSync(join(results, 'runs'), { recursive: true });
  const db = `side${++runs}${engine}`;
  const points = join(dir, 'points.ndjson');
  const args = [
    opts.script,
    ...(opts.args ?? []),
    '-o',
    `json=${points}`,
    '-o',
    `influxdb=${opts.influx.urlFor(db)}`,
  ];
  const summaryJson =
    opts.mode === 'suite' ? join(results, 'summary-latest.json') : join(dir, 'summary.json');
  const env = {
    ...(opts.mode === 'suite'
      ? { LT_RESULTS_DIR: results, LT_RUN_SUMMARY: join(results, 'runs', 'e2e.json'), LT_SCENARIO: 'e2e' }
      : { SUMMARY_JSON: summaryJson }),
    ...opts.env,
  };
  const timeoutMs = opts.timeoutMs ?? 120_000;
  const result =
    opts.mode === 'suite'
      ? await runThroughRunK6(engine, args, { env, timeoutMs })
      : await runLoadlab(args, { engine, env, cwd: dir, timeoutMs });
  const counts = { counts: opts.counts ?? true };
  const data = existsSync(summaryJson)
    ? (JSON.parse(readFileSync(summaryJson, 'utf8')) as SummaryData)
    : undefined;
  const files: string[] = [];
  const list = (folder: string) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) list(path);
      else files.push(normalizeFileName(relative(results, path)));
    }
  };
  list(results);
  const shape: RunShape = {
    exitCode: result.code,
    ...(data ? summaryShape(data, counts) : { dataKeys: [], metrics: {}, checks: {}, groups: [] }),
    files: files.sort(),
    ...ndjsonShape(existsSync(points) ? readFileSync(points, 'utf8') : '', counts),
    influx: lineProtocolShape(opts.influx.lines(db)),
  };
  return { engine, dir, result, data, shape };
}

/** Both engines at once (the machine has two cores); k6 first in every pair. */
export async function sideBySide(
  opts: SideBySideOptions,
): Promise<{ k6: EngineRun; node: EngineRun; differences: string[] }> {
  const [k6, node] = await Promise.all([runOne('k6', opts), runOne('node', opts)]);
  return { k6, node, differences: diffShapes(k6.shape, node.shape) };
}

/** A failure message: the differences, then each engine's output to see why. */
export function explain(differences: string[], k6: EngineRun, node: EngineRun): string {
  const tail = (r: RunResult) => `${r.stdout.slice(-1500)}\n${r.stderr.slice(-3000)}`;
  return [
    `${differences.length} difference(s) between k6 and the runner:`,
    ...differences.map((d) => `  - ${d}`),
    `--- k6 (exit ${k6.result.code}):`,
    tail(k6.result),
    `--- runner (exit ${node.result.code}):`,
    tail(node.result),
  ].join('\n');
}
