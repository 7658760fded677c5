// The /api/ds/query requests stack:verify builds from the dashboards dashboards/ builds, and the rule
// for which must answer with data.
import assert from 'node:assert/strict';
import { builtDashboards } from './checks.js';
import { framesHaveData } from './grafana-api.js';
import { csvValues, fluxCountOfRun, fluxString, influxqlString } from './influx2.js';
import { gridRows, viewportHeight } from './screenshots.js';
import {
  dsQueryRequest,
  expectsData,
  influxMeasurements,
  intervalSeconds,
  panelTargets,
  panelTitles,
  promMetrics,
  rateIntervalSeconds,
  variablesFor,
} from './panel-requests.js';

const ROOT = new URL('../..', import.meta.url).pathname;
const window = { fromMs: 1_700_000_000_000, toMs: 1_700_000_600_000 };

describe('stack:verify panel requests', () => {
  const dashboards = builtDashboards(ROOT);

  it('fills every variable of every target of both dashboards, and sends each as its datasource takes it', () => {
    assert.deepEqual(
      dashboards.map((d) => d.uid),
      ['loadlab-k6', 'loadlab-services'],
    );
    const variables = variablesFor('20261126T010203Z-mixed-traffic', window);
    let count = 0;
    for (const dashboard of dashboards) {
      for (const target of panelTargets(dashboard)) {
        const { text, request } = dsQueryRequest(target, window, variables);
        assert.doesNotMatch(text, /\$\w/, text);
        assert.deepEqual([request.from, request.to], ['1700000000000', '1700000600000']);
        const [query] = request.queries;
        assert.equal(query?.refId, target.refId);
        assert.ok(['loadlab-influxdb', 'loadlab-prometheus'].includes(query!.datasource.uid));
        assert.equal(query![target.datasource.type === 'influxdb' ? 'query' : 'expr'], text);
        if (target.datasource.type === 'influxdb') {
          assert.equal(query!.rawQuery, true);
          assert.match(text, /time >= 1700000000000ms and time <= 1700000600000ms/);
          assert.match(text, /=~ \/\^20261126T010203Z-mixed-traffic\$\//);
        }
        count++;
      }
    }
    assert.ok(count >= 35, String(count));
  });

  it('a variable no value is given for is an error naming it, not a query Grafana rejects', () => {
    const [target] = panelTargets(dashboards[0]!);
    assert.throws(() => dsQueryRequest(target!, window, {}), /no value for \$/);
  });

  it("Grafana's intervals: one point per pixel of 1000, at least 1 s; rate interval at least 4 scrapes", () => {
    assert.equal(intervalSeconds(window), 1);
    assert.equal(intervalSeconds({ fromMs: 0, toMs: 3_600_000 }), 4);
    assert.equal(rateIntervalSeconds(1), 20);
    assert.equal(rateIntervalSeconds(30), 35);
  });

  it('expects data exactly where the run recorded every measurement or some job every metric a query reads', () => {
    const q = 'SELECT sum("value") FROM "http_reqs" WHERE $timeFilter';
    assert.deepEqual(influxMeasurements('SELECT a FROM "x" WHERE b; SELECT c FROM "y"'), ['x', 'y']);
    assert.deepEqual(promMetrics('sum(rate(a_total{job=~"$job"}[1m])) / sum(b{job=~"$job"})'), [
      'a_total',
      'b',
    ]);
    const influx = {
      panel: 'p',
      refId: 'A',
      datasource: { type: 'influxdb', uid: 'u' },
      text: q,
      target: {},
    };
    const recorded = (m: string[], jobs: Record<string, string[]> = {}) => ({
      measurements: new Set(m),
      metricsByJob: new Map(Object.entries(jobs).map(([j, n]) => [j, new Set(n)])),
    });
    assert.equal(expectsData(influx, recorded(['http_reqs'])), true);
    assert.equal(expectsData(influx, recorded(['iterations'])), false);
    const prom = { ...influx, datasource: { type: 'prometheus', uid: 'p' }, text: 'a{x="1"} / b{x="1"}' };
    assert.equal(expectsData(prom, recorded([], { sandbox: ['a'], clinic: ['a', 'b'] })), true);
    assert.equal(expectsData(prom, recorded([], { sandbox: ['a'], clinic: ['b'] })), false);
  });

  it('panel titles with and without rows', () => {
    const k6 = dashboards[0]!;
    assert.ok(panelTitles(k6).length > panelTitles(k6, { rows: false }).length);
    assert.ok(panelTitles(k6, { rows: false }).includes('Requests per second'));
  });

  it('frames have data only with a finite number in a number field', () => {
    const frame = (type: string, values: unknown[]) => ({
      schema: { fields: [{ type: 'time' }, { type }] },
      data: { values: [[1], values] },
    });
    assert.equal(framesHaveData([frame('number', [null])]), false);
    assert.equal(framesHaveData([frame('string', ['x'])]), false);
    assert.equal(framesHaveData([frame('number', [null, 0])]), true);
    assert.equal(framesHaveData([]), false);
  });

  it('quotes values for InfluxQL and Flux, and reads the _value column of annotated CSV', () => {
    assert.equal(influxqlString("a'b\\c"), "'a\\'b\\\\c'");
    assert.equal(fluxString('a"b${c}'), '"a\\"b\\${c}"');
    assert.match(
      fluxCountOfRun('k6', 'id', 0, 1000),
      /range\(start: 1970-01-01T00:00:00\.000Z, stop: 1970-01-01T00:00:01\.000Z\)/,
    );
    const csv =
      '#datatype,string,long,long\r\n#group,false,false,false\r\n#default,_result,,\r\n,result,table,_value\r\n,,0,605\r\n\r\n';
    assert.deepEqual(csvValues(csv), ['605']);
    assert.deepEqual(csvValues(''), []);
  });

  it('the screenshot viewport holds the whole grid, so no panel is left lazily unloaded', () => {
    assert.deepEqual(
      dashboards.map((d) => gridRows(d)),
      [79, 43],
    );
    assert.ok(viewportHeight(79) >= 79 * 38);
    assert.equal(viewportHeight(1), 1200);
  });
});
