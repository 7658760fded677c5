// Structure of the generated dashboards and of the Grafana provisioning: only provisioned datasource
// uids, no `${DS_...}` inputs, JSON in sync with its TypeScript source, variables that exist.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { DASHBOARD_FILES, JSON_DIR, renderedDashboards } from './build.js';
import { panelQueries, unfilledVariables } from './queries.js';

const provisioning = (file: string) =>
  parse(readFileSync(new URL(`../provisioning/${file}`, import.meta.url), 'utf8')) as Record<string, unknown>;

const datasources = (provisioning('datasources/datasources.yml').datasources ?? []) as Array<{
  uid: string;
  type: string;
  jsonData?: Record<string, unknown>;
}>;
const provisionedUids = new Map(datasources.map((d) => [d.uid, d.type]));
const load = (file: string) =>
  JSON.parse(readFileSync(join(JSON_DIR, file), 'utf8')) as Record<string, unknown>;

/** Every `datasource` object anywhere in the JSON (panels, targets, variables). */
function datasourceRefs(node: unknown, found: Array<{ uid?: string; type?: string }> = []) {
  if (Array.isArray(node)) node.forEach((child) => datasourceRefs(child, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === 'datasource' && value && typeof value === 'object') found.push(value as { uid?: string });
      else datasourceRefs(value, found);
    }
  }
  return found;
}

const GRAFANA_BUILTINS = new Set(['timeFilter', '__interval', '__interval_ms', '__rate_interval', '__range']);

describe('provisioning', () => {
  it('provisions InfluxDB (InfluxQL) and Prometheus with fixed uids', () => {
    assert.equal(provisionedUids.get('loadlab-influxdb'), 'influxdb');
    assert.equal(provisionedUids.get('loadlab-prometheus'), 'prometheus');
    const influx = datasources.find((d) => d.type === 'influxdb');
    // No `version: Flux`: the datasource speaks InfluxQL (Grafana's default query language).
    assert.equal(influx?.jsonData?.version, undefined);
    assert.ok(influx?.jsonData?.dbName);
  });

  it('loads dashboards from the folder compose mounts the generated JSON into', () => {
    const providers = provisioning('dashboards/dashboards.yml').providers as Array<{
      options: { path: string };
    }>;
    assert.equal(providers[0]?.options.path, '/var/lib/grafana/dashboards');
  });
});

describe('dashboards', () => {
  it('the committed JSON matches its TypeScript source (npm run dashboards:build)', async () => {
    const rendered = await renderedDashboards();
    assert.deepEqual(Object.keys(rendered), [...DASHBOARD_FILES]);
    for (const [file, text] of Object.entries(rendered)) {
      assert.equal(readFileSync(join(JSON_DIR, file), 'utf8'), text, `${file} is stale`);
    }
  });

  for (const file of DASHBOARD_FILES) {
    describe(file, () => {
      const dashboard = load(file);
      const text = readFileSync(join(JSON_DIR, file), 'utf8');

      it('references only provisioned datasource uids, never ${DS_...} inputs', () => {
        assert.doesNotMatch(text, /\$\{DS_/);
        assert.equal('__inputs' in dashboard, false);
        const refs = datasourceRefs(dashboard);
        assert.ok(refs.length > 0);
        for (const ref of refs) {
          assert.ok(ref.uid && provisionedUids.has(ref.uid), `unknown datasource uid ${ref.uid}`);
          assert.equal(ref.type, provisionedUids.get(ref.uid));
        }
      });

      it('has a unique uid, and every panel has queries with distinct refIds', () => {
        assert.match(String(dashboard.uid), /^loadlab-/);
        const queries = panelQueries(dashboard);
        assert.ok(queries.length >= 8, `only ${queries.length} queries`);
        const panels = new Map<string, string[]>();
        for (const q of queries) {
          assert.ok(q.text.trim(), `${q.panel} ${q.refId} has no query`);
          panels.set(q.panel, [...(panels.get(q.panel) ?? []), q.refId]);
        }
        for (const [panel, refIds] of panels) assert.equal(new Set(refIds).size, refIds.length, panel);
      });

      it('uses only its own template variables and Grafana built-ins', () => {
        const templating = dashboard.templating as { list: Array<{ name: string }> };
        const own = new Set(templating.list.map((v) => v.name));
        const queries = [
          ...panelQueries(dashboard).map((q) => q.text),
          ...templating.list.map((v) => JSON.stringify(v)),
        ];
        for (const query of queries) {
          for (const name of unfilledVariables(query)) {
            assert.ok(own.has(name) || GRAFANA_BUILTINS.has(name), `unknown variable $${name} in ${query}`);
          }
        }
      });
    });
  }

  it('k6 dashboard answers the questions of the issue', () => {
    const titles = panelQueries(load('k6-load-test.json')).map((q) => q.panel.toLowerCase());
    for (const topic of [
      'requests per second',
      'virtual users',
      'p95 / p99',
      'error rate',
      'checks',
      'per endpoint',
      'data',
    ]) {
      assert.ok(
        titles.some((t) => t.includes(topic)),
        `no panel about ${topic}`,
      );
    }
    const variables = (load('k6-load-test.json').templating as { list: Array<{ name: string }> }).list.map(
      (v) => v.name,
    );
    assert.deepEqual(variables, ['testid', 'scenario']);
  });

  it('k6 dashboard queries every custom metric the suite declares (k6/**: new Trend/Rate/Counter/Gauge)', () => {
    const declared = new Set<string>();
    const walk = (dir: string) => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        if (entry.isDirectory()) walk(path);
        else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts'))
          for (const m of readFileSync(path, 'utf8').matchAll(/new (?:Trend|Rate|Counter|Gauge)\('(\w+)'/g))
            declared.add(m[1]!);
      }
    };
    walk(fileURLToPath(new URL('../k6', import.meta.url)));
    // The nine of the spec and the gate's counter, at least.
    assert.ok(declared.size >= 10, [...declared].join());
    const queried = new Set(
      panelQueries(load('k6-load-test.json')).flatMap((q) =>
        [...q.text.matchAll(/FROM "(\w+)"/g)].map((m) => m[1]!),
      ),
    );
    assert.deepEqual(
      [...declared].filter((name) => !queried.has(name)),
      [],
      'custom metrics without a panel',
    );
  });

  it('services dashboard covers rate, errors, duration per route, event-loop lag and memory', () => {
    const exprs = panelQueries(load('services.json')).map((q) => q.text);
    for (const metric of [
      'http_requests_total',
      'status=~"5.."',
      'http_request_duration_seconds_bucket',
      'nodejs_eventloop_lag',
      'process_resident_memory_bytes',
    ]) {
      assert.ok(
        exprs.some((e) => e.includes(metric)),
        `no query on ${metric}`,
      );
    }
  });
});
