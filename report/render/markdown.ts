// results/REPORT.md: the same tables as the HTML report, in GitHub-flavoured Markdown so it can be
// pasted into a PR comment or $GITHUB_STEP_SUMMARY as is.
import { describeEngine } from '../engine-of-run.js';
import type { Report, ScenarioReport } from '../model.js';
import { delta, duration, ms, noData, num, observed, pct, value, noDataNote } from './format.js';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
const verdict = (ok: boolean) => (ok ? '✅ PASS' : '❌ FAIL');

function table(head: string[], rows: string[][]): string {
  if (rows.length === 0) return '_none_\n';
  const line = (cells: string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(head), `|${head.map(() => '---').join('|')}|`, ...rows.map(line)].join('\n') + '\n';
}

function scenario(s: ScenarioReport): string {
  const out: string[] = [
    `## ${s.scenario} — ${verdict(s.passed)}`,
    '',
    `Engine: ${describeEngine(s.engine)}.`,
    '',
  ];
  if (s.problems.length) out.push(...s.problems.map((p) => `- ${p}`), '');
  const empty = s.thresholds.filter(noData).length;
  if (empty) out.push(noDataLine(empty), '');
  out.push(
    '### Thresholds',
    '',
    table(
      ['metric', 'threshold', 'observed', 'result'],
      s.thresholds.map((t) => [t.metric, t.source, observed(t), noData(t) ? '⚪ no data' : verdict(t.ok)]),
    ),
  );
  out.push(
    '### Checks',
    '',
    table(
      ['group', 'check', 'passes', 'fails'],
      s.checks.map((c) => [c.group || '(root)', c.name, String(c.passes), c.fails ? `**${c.fails}**` : '0']),
    ),
  );
  out.push(
    '### Endpoints',
    '',
    table(
      ['name', 'count', 'req/s', 'error %', 'p50', 'p90', 'p95', 'p99', 'max'],
      s.endpoints.map((e) => [
        e.name,
        String(e.count),
        num(e.rps),
        pct(e.errorRate),
        ms(e.p50),
        ms(e.p90),
        ms(e.p95),
        ms(e.p99),
        ms(e.max),
      ]),
    ),
  );
  out.push(
    '### Status codes',
    '',
    table(
      ['status', 'count'],
      s.statuses.map((r) => [r.key, String(r.count)]),
    ),
  );
  out.push(
    '### Errors',
    '',
    table(
      ['error', 'count'],
      s.errors.map((r) => [r.key, String(r.count)]),
    ),
  );
  const c = s.comparison;
  if (c) {
    out.push(`### Compared with run ${c.previousRunId}`, '');
    if (c.engineWarning) out.push(`> ⚠️ ${c.engineWarning}.`, '');
    if (!c.enoughData) out.push('_Fewer than 30 requests on one side: deltas shown, nothing flagged._', '');
    const rows = c.metrics.map((r) => [
      r.label,
      value(r.kind, r.previous),
      value(r.kind, r.current),
      delta(r.kind, r.delta),
      flag(r.flag),
    ]);
    for (const e of c.endpoints)
      for (const r of e.rows)
        rows.push([
          `${e.name} ${r.label}`,
          value(r.kind, r.previous),
          value(r.kind, r.current),
          delta(r.kind, r.delta),
          flag(r.flag),
        ]);
    out.push(table(['metric', 'previous', 'current', 'delta', 'change'], rows));
  }
  return out.join('\n');
}

const flag = (f: '' | 'worse' | 'better') => (f === 'worse' ? '⚠️ worse' : f === 'better' ? '⬆️ better' : '');

const noDataLine = (n: number) => `_${noDataNote(n)}_`;

function totalNoData(report: Report): string[] {
  const n = report.scenarios.reduce((sum, s) => sum + s.thresholds.filter(noData).length, 0);
  return n ? [noDataLine(n), ''] : [];
}

/** Inputs the report could not read: named, so a reader knows the report is not the whole run. */
function skippedLines(report: Report): string[] {
  if (!report.skipped?.length) return [];
  return [
    `**${report.skipped.length} input${report.skipped.length === 1 ? '' : 's'} skipped** (could not be read):`,
    '',
    ...report.skipped.map((x) => `- ${x.scenario}: ${x.reason}`),
    '',
  ];
}

export function renderMarkdown(report: Report): string {
  const head = [
    `# ${report.title} — ${report.passed ? 'PASS' : 'FAIL'}`,
    '',
    `Generated ${report.generatedAt}${report.runId ? `, run ${report.runId}` : ''}.`,
    '',
    table(
      ['scenario', 'result', 'engine', 'duration', 'requests', 'req/s', 'error %', 'p95', 'checks'],
      report.scenarios.map((s) => [
        s.scenario,
        verdict(s.passed),
        describeEngine(s.engine),
        duration(s.totals.durationMs),
        String(s.totals.requests),
        num(s.totals.rps),
        pct(s.totals.errorRate),
        ms(s.totals.p95),
        `${s.totals.checksPassed}/${s.totals.checksPassed + s.totals.checksFailed}`,
      ]),
    ),
    ...totalNoData(report),
    ...skippedLines(report),
  ];
  return [...head, ...report.scenarios.map(scenario)].join('\n');
}
