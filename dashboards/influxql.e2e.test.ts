// Every InfluxQL query of the k6 dashboard, with its template variables filled in as Grafana would,
// returns series from a real InfluxDB 1.x holding real runs of the suite streamed by the Node runner
// (every custom metric of the suite included, see influx-data.ts).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { onPath } from '../devkit/command.js';
import { influxQuery, startInfluxd, type InfluxSeries } from '../devkit/influxdb.js';
import { freePort, type Daemon } from '../devkit/processes.js';
import { JSON_DIR } from './build.js';
import { streamSuiteRuns, type StreamedRun } from './testing/influx-data.js';
import { fillVariables, influxRegexValue, panelQueries, unfilledVariables } from './queries.js';

const DB = 'k6';
const dashboard = JSON.parse(readFileSync(join(JSON_DIR, 'k6-load-test.json'), 'utf8')) as {
  panels: unknown[];
  templating: { list: Array<{ name: string; query: string; allValue?: string }> };
};

/** True when some series has at least one non-null value besides the time column. */
function hasValues(series: InfluxSeries[]): boolean {
  return series.some((s) => s.values.some((row) => row.slice(1).some((v) => v !== null)));
}

describe('k6 dashboard InfluxQL against a real InfluxDB 1.x', function () {
  this.timeout(300_000);
  let influx: Daemon | undefined;
  let dataDir = '';
  let run: StreamedRun;

  before(async function () {
    if (!onPath('influxd')) {
      console.warn('      skipped: influxd is not installed (./scripts/setup.sh installs Debian influxdb)');
      this.skip();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'loadlab-influx-'));
    influx = await startInfluxd({ dataDir, httpPort: await freePort(), rpcPort: await freePort() });
    run = await streamSuiteRuns(influx.url, DB);
  });

  after(async () => {
    await influx?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  const variables = (scenario: string) => ({
    testid: influxRegexValue(run.testid),
    scenario,
    timeFilter: `time >= ${run.fromMs}ms and time <= ${run.toMs}ms`,
    __interval: '1s',
    __interval_ms: '1000',
  });

  it('the template variables list the run and its scenario', async () => {
    const [testid, scenario] = dashboard.templating.list;
    const ids = await influxQuery(influx!.url, DB, testid!.query);
    assert.ok(
      ids[0]?.values.some((row) => row[1] === run.testid),
      JSON.stringify(ids),
    );
    const scenarios = await influxQuery(influx!.url, DB, fillVariables(scenario!.query, variables('.*')));
    assert.deepEqual(
      scenarios[0]?.values.map((row) => row[1]).sort(),
      [...run.scenarios].sort(),
      JSON.stringify(scenarios),
    );
  });

  it('a query for another run returns nothing (the testid filter really filters)', async () => {
    const [query] = panelQueries(dashboard).filter((q) => q.panel === 'Requests');
    const other = fillVariables(query!.text, { ...variables('.*'), testid: 'no-such-run' });
    assert.equal(hasValues(await influxQuery(influx!.url, DB, other)), false);
  });

  // Both ways Grafana fills $scenario: "All" (its allValue), and one selected scenario, where a query
  // must find data for the scenario that recorded its metric (browser_page_load: browser_login).
  for (const mode of ['all scenarios', 'one scenario'] as const) {
    it(`every panel query returns series (${mode})`, async () => {
      const queries = panelQueries(dashboard);
      assert.ok(queries.length >= 24);
      const choices = mode === 'all scenarios' ? ['.*'] : run.scenarios.map(influxRegexValue);
      const empty: string[] = [];
      for (const query of queries) {
        let found = false;
        for (const scenario of choices) {
          const text = fillVariables(query.text, variables(scenario));
          assert.deepEqual(unfilledVariables(text), [], text);
          if (hasValues(await influxQuery(influx!.url, DB, text))) found = true;
        }
        if (!found) empty.push(`${query.panel} ${query.refId}: ${query.text}`);
      }
      assert.deepEqual(empty, [], `queries without data:\n${empty.join('\n')}`);
    });
  }

  it('the per-endpoint table has one row per request name', async () => {
    const [query] = panelQueries(dashboard).filter(
      (q) => q.panel.startsWith('Per endpoint') && q.refId === 'A',
    );
    const series = await influxQuery(influx!.url, DB, fillVariables(query!.text, variables('.*')));
    const names = series.map((s) => s.tags?.name);
    assert.ok(
      names.length >= 1 && names.every((n) => typeof n === 'string' && n.length > 0),
      JSON.stringify(names),
    );
    assert.deepEqual(series[0]?.columns, ['time', 'requests', 'avg ms', 'p95 ms', 'max ms']);
  });
});
