// Every PromQL query of the services dashboard returns data from a real Prometheus that scrapes the
// services (stack/prometheus.yml with loopback targets) while a bounded load runs.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hasTool } from '../stack/tools.js';
import { freePort, pollUntil, type Daemon } from '../stack/local/processes.js';
import {
  localPrometheusConfig,
  promRangeQuery,
  readStackPrometheusConfig,
  startPrometheus,
} from '../stack/local/prometheus.js';
import { JSON_DIR } from './build.js';
import { boundedLoad, startTargets, type Targets } from './prom-targets.js';
import { fillVariables, panelQueries, unfilledVariables } from './queries.js';

const dashboard = JSON.parse(readFileSync(join(JSON_DIR, 'services.json'), 'utf8')) as { panels: unknown[] };

describe('services dashboard PromQL against a real Prometheus', function () {
  this.timeout(120_000);
  let prometheus: Daemon | undefined;
  let targets: Targets | undefined;
  let dataDir = '';

  before(async function () {
    if (!hasTool('prometheus')) {
      console.warn('      skipped: prometheus is not installed (./scripts/setup.sh installs it)');
      this.skip();
    }
    targets = await startTargets();
    const local = Object.fromEntries(
      targets.targets.map((t) => [t.composeTarget, new URL(t.server.url).host]),
    );
    // The stack's own file; only the targets (and a 1 s scrape interval, to keep the test short) differ.
    const config = localPrometheusConfig(readStackPrometheusConfig(), local, { scrapeInterval: '1s' });
    dataDir = mkdtempSync(join(tmpdir(), 'loadlab-prometheus-'));
    prometheus = await startPrometheus({ dataDir, port: await freePort(), config });
    // Load only once every job is being scraped, so the scrapes see the counters move.
    await pollUntil(
      'a first scrape of every job',
      async () => {
        const up = await promRangeQuery(prometheus!.url, 'up == 1', 10);
        return up.length === targets!.targets.length ? up : undefined;
      },
      30_000,
    );
    const sent = await boundedLoad(targets.targets, 5000);
    console.log(`      ${sent} requests of bounded load on the sandbox and both clinic instances`);
    // One more scrape after the load, so the last counter values are stored too.
    await new Promise((r) => setTimeout(r, 2000));
  });

  after(async () => {
    await prometheus?.stop();
    await targets?.close();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('scrapes every job of stack/prometheus.yml successfully', async () => {
    const up = await promRangeQuery(prometheus!.url, 'up', 30);
    const jobs = Object.fromEntries(up.map((s) => [s.metric.job, s.values.at(-1)?.[1]]));
    assert.deepEqual(jobs, { sandbox: '1', clinic: '1', 'clinic-secure': '1' });
  });

  it('the job variable lists every service', async () => {
    const response = await fetch(`${prometheus!.url}/api/v1/label/job/values?match[]=http_requests_total`);
    const body = (await response.json()) as { data: string[] };
    assert.deepEqual(body.data.sort(), ['clinic', 'clinic-secure', 'sandbox']);
  });

  for (const job of ['.*', 'sandbox', 'clinic-secure']) {
    it(`every panel query returns data (job=~"${job}")`, async () => {
      const queries = panelQueries(dashboard);
      assert.ok(queries.length >= 8);
      const empty: string[] = [];
      for (const query of queries) {
        const text = fillVariables(query.text, { job, __rate_interval: '5s', __interval: '1s' });
        assert.deepEqual(unfilledVariables(text), [], text);
        const series = await promRangeQuery(prometheus!.url, text, 60);
        const hasNumbers = series.some((s) => s.values.some(([, v]) => Number.isFinite(Number(v))));
        if (!hasNumbers) empty.push(`${query.panel} ${query.refId}: ${text}`);
      }
      assert.deepEqual(empty, [], `queries without data:\n${empty.join('\n')}`);
    });
  }

  it('per-route series use templated routes, so ids do not multiply series', async () => {
    const series = await promRangeQuery(prometheus!.url, 'sum by (route) (http_requests_total)', 30);
    const routes = series.map((s) => s.metric.route ?? '');
    assert.ok(routes.length >= 2, JSON.stringify(routes));
    assert.ok(
      routes.every((r) => !/\/\d+$/.test(r)),
      JSON.stringify(routes),
    );
  });
});
