// Every PromQL query of the services dashboard returns data from a real Prometheus that scrapes the
// services (stack/prometheus.yml with loopback targets) while a bounded load runs. Where PostgreSQL
// is installed, both clinic instances run on a throw-away cluster (as in the compose stack), so the
// pool panel is checked against real gauges; a query must return data exactly when one of the jobs
// it selects exposes every metric it reads (the sandbox has no pool, so its pool panel stays empty).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findPostgresBin, startPgServer, type PgServer } from '../devkit/postgres.js';
import { onPath } from '../devkit/command.js';
import { freePort, pollUntil, type Daemon } from '../devkit/processes.js';
import {
  localPrometheusConfig,
  promRangeQuery,
  readStackPrometheusConfig,
  startPrometheus,
} from '../devkit/prometheus.js';
import { JSON_DIR } from './build.js';
import { boundedLoad, startTargets, type Targets } from './testing/prom-targets.js';
import { fillVariables, panelQueries, unfilledVariables } from './queries.js';

const POOL_PANEL = 'Clinic database pool';
const dashboard = JSON.parse(readFileSync(join(JSON_DIR, 'services.json'), 'utf8')) as { panels: unknown[] };

describe('services dashboard PromQL against a real Prometheus', function () {
  this.timeout(120_000);
  let prometheus: Daemon | undefined;
  let targets: Targets | undefined;
  let database: PgServer | undefined;
  let dataDir = '';
  /** Job -> names of the metrics it exposes, from Prometheus after the load. */
  let exposed = new Map<string, Set<string>>();

  before(async function () {
    if (!onPath('prometheus')) {
      console.warn('      skipped: prometheus is not installed (./scripts/setup.sh installs it)');
      this.skip();
    }
    const bin = findPostgresBin();
    if (bin) database = await startPgServer(bin);
    else console.warn('      clinic on memory: no PostgreSQL binaries, the pool panel is not checked');
    targets = await startTargets(database?.url);
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
    exposed = await metricsByJob(prometheus.url);
  });

  after(async () => {
    await prometheus?.stop();
    await targets?.close();
    await database?.stop();
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

  it('the clinic on PostgreSQL exposes the pool gauges to Prometheus, the sandbox does not', async function () {
    if (!database) {
      console.warn(
        '      skipped: no PostgreSQL binaries (apt-get install postgresql; ./scripts/setup.sh does)',
      );
      this.skip();
    }
    const pool = ['clinic_db_pool_clients', 'clinic_db_pool_idle_clients', 'clinic_db_pool_waiting_requests'];
    for (const job of ['clinic', 'clinic-secure'])
      assert.deepEqual(
        pool.filter((m) => !exposed.get(job)?.has(m)),
        [],
        `${job} lacks pool metrics`,
      );
    assert.deepEqual(
      pool.filter((m) => exposed.get('sandbox')?.has(m)),
      [],
    );
    const last = async (q: string) =>
      (await promRangeQuery(prometheus!.url, q, 5)).map((s) => s.values.at(-1)?.[1]);
    // Each instance opened connections under the load (the pool may close idle ones since).
    for (const job of ['clinic', 'clinic-secure']) {
      const [most] = await last(`max_over_time(clinic_db_pool_clients{job="${job}"}[60s])`);
      assert.ok(Number(most) >= 1, `${job} held no connection under load (${most})`);
    }
    // Once the load ended every connection was handed back: none busy (open - idle), none waited for.
    assert.deepEqual(await last('sum(clinic_db_pool_clients) - sum(clinic_db_pool_idle_clients)'), ['0']);
    assert.deepEqual(await last('sum(clinic_db_pool_waiting_requests)'), ['0']);
  });

  for (const job of ['.*', 'sandbox', 'clinic', 'clinic-secure']) {
    it(`every panel query returns data where its job exposes the metrics (job=~"${job}")`, async () => {
      const queries = panelQueries(dashboard);
      assert.ok(queries.length >= 8);
      const wrong: string[] = [];
      const selected = [...exposed.keys()].filter((j) => new RegExp(`^(?:${job})$`).test(j));
      for (const query of queries) {
        const text = fillVariables(query.text, { job, __rate_interval: '5s', __interval: '1s' });
        assert.deepEqual(unfilledVariables(text), [], text);
        const reads = metricNames(text);
        assert.ok(reads.length > 0, `no metric name found in ${text}`);
        const expected = selected.some((j) => reads.every((m) => exposed.get(j)?.has(m)));
        // All jobs together must feed every panel (a misspelt metric is never "expected empty"); only
        // the pool panel has nothing to show when the clinic runs on memory.
        const pool = query.panel === POOL_PANEL;
        if (job === '.*' && !expected && !(pool && !database))
          wrong.push(`${query.panel} ${query.refId} reads a metric no job exposes: ${text}`);
        const series = await promRangeQuery(prometheus!.url, text, 60);
        const hasNumbers = series.some((s) => s.values.some(([, v]) => Number.isFinite(Number(v))));
        if (hasNumbers !== expected)
          wrong.push(`${query.panel} ${query.refId} ${expected ? 'without data' : 'with data'}: ${text}`);
      }
      assert.deepEqual(wrong, [], `queries answering wrongly:\n${wrong.join('\n')}`);
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

/** The metric names a PromQL query reads (every selector here is written `name{...}`). */
function metricNames(query: string): string[] {
  return [...new Set([...query.matchAll(/([a-zA-Z_:][\w:]*)\{/g)].map((m) => m[1]!))];
}

/** Each scraped job with the names of the metrics it exposes. */
async function metricsByJob(url: string): Promise<Map<string, Set<string>>> {
  const series = await promRangeQuery(url, 'count by (job, __name__) ({job!=""})', 30);
  const byJob = new Map<string, Set<string>>();
  for (const s of series) {
    const job = s.metric.job ?? '';
    const names = byJob.get(job) ?? new Set<string>();
    names.add(s.metric.__name__ ?? '');
    byJob.set(job, names);
  }
  return byJob;
}
