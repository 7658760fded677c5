// Metrics that never got a sample, side by side with real k6: what its handleSummary data,
// --summary-export and text summary say (an empty rate shows rate 0 and its thresholds pass; an empty
// counter, gauge or trend is judged on zeros), and what the runner, the report built from the runner's
// files and the live dashboard's exported page say for the same thresholds. k6's own dashboard lists
// no metric that never got a sample, so for it there is nothing to compare.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../devkit/loadlab-run.js';
import { NO_REAL_K6, realK6Available } from '../devkit/real-k6.js';
import { buildScenarioReport, type Report, type ThresholdRow } from './model.js';

const SCRIPT = `
import { check } from 'k6';
import { Rate, Counter, Trend, Gauge } from 'k6/metrics';
new Rate('never_rate'); new Counter('never_counter'); new Trend('never_trend'); new Gauge('never_gauge');
export const options = {
  iterations: 1,
  thresholds: {
    never_rate: ['rate>0.5', 'rate<0.5'],
    'checks{never:tagged}': ['rate>0.5'],
    never_counter: ['count>0'],
    never_trend: ['avg>1', 'p(99)<1'],
    never_gauge: ['value>0'],
  },
};
export default function () { check(1, { 'one is one': (v) => v === 1 }); }
export function handleSummary(data) {
  if (!__ENV.SUMMARY_JSON) return {};
  return { [__ENV.SUMMARY_JSON]: JSON.stringify(data) };
}
`;

const KEYS = ['never_rate', 'checks{never:tagged}', 'never_counter', 'never_trend', 'never_gauge'];

interface MetricData {
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}

interface Seen {
  data: Record<string, MetricData>;
  exported: Record<string, Record<string, unknown>>;
  text: string[];
}

/** The lines of the end-of-test text that name the metrics above. */
function textLines(stdout: string): string[] {
  return stdout
    .split('\n')
    .filter((l) => /never|rate>0\.5|rate<0\.5|count>0|avg>1|p\(99\)<1|value>0/.test(l))
    .map((l) => l.replace(/\s+/g, ' ').trim());
}

function pick<T>(all: Record<string, T>): Record<string, T> {
  return Object.fromEntries(KEYS.map((k) => [k, all[k]!]));
}

describe(`metrics without samples: runner, report and live dashboard against real k6 (skipped when ${NO_REAL_K6})`, function () {
  this.timeout(180_000);
  let dir: string;
  const seen: Partial<Record<'k6' | 'node', Seen>> = {};
  let dashboard: Report | undefined;
  let fromFiles: ThresholdRow[] = [];

  before(async function () {
    if (!realK6Available()) this.skip();
    dir = mkdtempSync(join(tmpdir(), 'loadlab-empty-metrics-'));
    writeFileSync(join(dir, 'empty.js'), SCRIPT);
    for (const engine of ['k6', 'node'] as const) {
      const summaryJson = join(dir, `${engine}-data.json`);
      const exportJson = join(dir, `${engine}-export.json`);
      const points = join(dir, `${engine}-points.ndjson`);
      const page = join(dir, `${engine}-dashboard.html`);
      const args = ['empty.js', '--summary-export', exportJson, '-o', `json=${points}`];
      const withData = await runLoadlab(args, {
        engine,
        cwd: dir,
        env: {
          SUMMARY_JSON: summaryJson,
          ...(engine === 'node'
            ? { K6_WEB_DASHBOARD: 'true', K6_WEB_DASHBOARD_PORT: '-1', K6_WEB_DASHBOARD_EXPORT: page }
            : {}),
        },
      });
      assert.equal(withData.code, 99, `${engine}: ${withData.stderr}`);
      const withText = await runLoadlab(['empty.js'], { engine, cwd: dir });
      assert.equal(withText.code, 99, `${engine}: ${withText.stderr}`);
      seen[engine] = {
        data: pick(
          (JSON.parse(readFileSync(summaryJson, 'utf8')) as { metrics: Record<string, MetricData> }).metrics,
        ),
        exported: pick(
          (
            JSON.parse(readFileSync(exportJson, 'utf8')) as {
              metrics: Record<string, Record<string, unknown>>;
            }
          ).metrics,
        ),
        text: textLines(withText.stdout),
      };
      if (engine === 'node') {
        const html = readFileSync(page, 'utf8');
        const json = /<script type="application\/json" id="report-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
        dashboard = JSON.parse(json ?? 'null') as Report;
        const report = await buildScenarioReport({
          scenario: 'empty',
          summaryPath: summaryJson,
          seriesPath: points,
        });
        fromFiles = report.thresholds;
      }
    }
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('k6 shows an empty rate as 0 and does not judge its thresholds; the other types are judged on zeros', function () {
    if (!realK6Available()) this.skip();
    const k6 = seen.k6!;
    assert.deepEqual(k6.data.never_rate!.values, { rate: 0, passes: 0, fails: 0 });
    assert.deepEqual(k6.data.never_rate!.thresholds, { 'rate>0.5': { ok: true }, 'rate<0.5': { ok: true } });
    assert.deepEqual(k6.data['checks{never:tagged}']!.thresholds, { 'rate>0.5': { ok: true } });
    assert.deepEqual(k6.data.never_counter!.thresholds, { 'count>0': { ok: false } });
    assert.deepEqual(k6.data.never_trend!.thresholds, { 'avg>1': { ok: false }, 'p(99)<1': { ok: true } });
    assert.deepEqual(k6.data.never_gauge!.thresholds, { 'value>0': { ok: false } });
  });

  it('the runner writes the same summary data, --summary-export and text summary lines as k6', function () {
    if (!realK6Available()) this.skip();
    assert.deepEqual(seen.node!.data, seen.k6!.data);
    assert.deepEqual(seen.node!.exported, seen.k6!.exported);
    assert.deepEqual(seen.node!.text, seen.k6!.text);
  });

  it("the report from the runner's files and the live dashboard show k6's values and verdicts", function () {
    if (!realK6Available()) this.skip();
    const expected = KEYS.flatMap((metric) =>
      Object.entries(seen.k6!.data[metric]!.thresholds!).map(([source, { ok }]) => {
        const stat = /^[a-z]+(\(\d+\))?/.exec(source)![0];
        // p(99) is not in k6's default summaryTrendStats: its value is the empty trend's 0.
        return { metric, source, ok, observed: seen.k6!.data[metric]!.values[stat] ?? 0 };
      }),
    );
    const shown = (rows: ThresholdRow[]) =>
      rows.map(({ metric, source, ok, observed }) => ({ metric, source, ok, observed }));
    const sort = <T extends { metric: string; source: string }>(rows: T[]) =>
      [...rows].sort((a, b) => `${a.metric} ${a.source}`.localeCompare(`${b.metric} ${b.source}`));
    assert.deepEqual(sort(shown(fromFiles)), sort(expected), 'report from files');
    assert.ok(dashboard, 'the live dashboard exported its page');
    // Live, a metric that never got a sample of any kind has no type to show a value for (k6's own
    // dashboard does not list it); a sub-metric of a sampled metric shows k6's 0.
    const live = expected.map((row) =>
      row.metric.startsWith('never_') ? { ...row, observed: undefined } : row,
    );
    assert.deepEqual(sort(shown(dashboard.scenarios[0]!.thresholds)), sort(live), 'live dashboard');
  });
});
