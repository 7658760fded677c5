// The run `npm run stack:verify` checks the stack against: stack/compose.sh's `stream` writes
// results/stack/last-run.env (testid, scenario, profile, start and end in epoch seconds, the k6
// container's exit code), and the k6 container writes its summaries into results/.
import { EXIT } from '@loadlab/k6-format/exit-codes';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const RUN_RECORD = 'results/stack/last-run.env';

export interface RunRecord {
  testid: string;
  scenario: string;
  profile: string;
  startedMs: number;
  endedMs: number;
  exitCode: number;
}

/** Reads the record compose.sh wrote; a missing or damaged line is named in one message. */
export function parseRunRecord(text: string): RunRecord {
  const values = new Map<string, string>();
  for (const line of text.split('\n')) {
    const at = line.indexOf('=');
    if (at > 0) values.set(line.slice(0, at), line.slice(at + 1));
  }
  const text_ = (name: string) => {
    const value = values.get(name);
    if (!value) throw new Error(`${RUN_RECORD} has no ${name}= line`);
    return value;
  };
  const integer = (name: string) => {
    const value = text_(name);
    if (!/^\d+$/.test(value)) throw new Error(`${RUN_RECORD}: ${name}=${value} is not a whole number`);
    return Number(value);
  };
  const record = {
    testid: text_('testid'),
    scenario: text_('scenario'),
    profile: text_('profile'),
    startedMs: integer('started') * 1000,
    endedMs: integer('ended') * 1000,
    exitCode: integer('exit'),
  };
  if (record.endedMs < record.startedMs) throw new Error(`${RUN_RECORD}: the run ended before it started`);
  return record;
}

export function readRunRecord(root: string): RunRecord {
  let text: string;
  try {
    text = readFileSync(join(root, RUN_RECORD), 'utf8');
  } catch {
    throw new Error(
      `no ${RUN_RECORD}: stream a run first (npm run test:load:mixed:grafana or npm run stream:grafana -- <scenario>)`,
    );
  }
  return parseRunRecord(text);
}

export interface SummaryJson {
  metrics?: Record<string, { thresholds?: Record<string, { ok: boolean }> }>;
}

/** How many thresholds the summary holds. */
export function thresholdCount(summary: SummaryJson): number {
  return Object.values(summary.metrics ?? {}).reduce((n, m) => n + Object.keys(m.thresholds ?? {}).length, 0);
}

/** `metric: expression` for every threshold the summary marks crossed. */
export function crossedThresholds(summary: SummaryJson): string[] {
  return Object.entries(summary.metrics ?? {}).flatMap(([name, metric]) =>
    Object.entries(metric.thresholds ?? {})
      .filter(([, result]) => !result.ok)
      .map(([expression]) => `${name}: ${expression}`),
  );
}

/** k6's rule: 0 when every threshold held, EXIT.thresholds (99) when one was crossed; any other code is not a threshold result. */
export function exitAgreesWithThresholds(exitCode: number, crossed: string[]): string | undefined {
  const expected = crossed.length > 0 ? EXIT.thresholds : EXIT.ok;
  if (exitCode === expected) return undefined;
  if (exitCode !== EXIT.ok && exitCode !== EXIT.thresholds)
    return `k6 exited ${exitCode}, which is not a threshold outcome`;
  return crossed.length > 0
    ? `k6 exited 0 though the summary marks crossed: ${crossed.join(', ')}`
    : `k6 exited ${EXIT.thresholds} though the summary marks every threshold as held`;
}

/** The summary files the k6 container wrote during the run (results/summary-*.json, modified since it began). */
export function summaryFilesOfRun(root: string, record: RunRecord): string[] {
  const dir = join(root, 'results');
  // A second of slack: the record's start is in whole seconds.
  const since = record.startedMs - 1000;
  return readdirSync(dir)
    .filter((name) => /^summary-.*\.json$/.test(name))
    .map((name) => join(dir, name))
    .filter((path) => statSync(path).mtimeMs >= since);
}
