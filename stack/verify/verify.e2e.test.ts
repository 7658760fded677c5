// stack:verify against real services: a real InfluxDB 1.6 holding a real mixed-traffic run streamed by
// the Node runner (as test:load:mixed:grafana streams one, shorter), a real Prometheus scraping the real
// sandbox and clinics with the stack's prometheus.yml, and in front of them the doubles for what cannot
// run here: Grafana (testing/grafana-double.ts) and InfluxDB 2's Flux API (testing/influx2-double.ts),
// each refusing any request that differs from what their sources take. Then the same checks are shown
// to fail: a dashboard not provisioned, panels without data, a foreign-owned summary, an exit code at
// odds with the thresholds, a scrape target down.
import assert from 'node:assert/strict';
import {
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { boundedLoad, startTargets, type Targets } from '../../dashboards/testing/prom-targets.js';
import { startTestSandbox, TEST_CREDENTIALS } from '../../k6/testing/run-bundle.js';
import { startInfluxd } from '../../devkit/influxdb.js';
import { freePort, pollUntil, type Daemon } from '../../devkit/processes.js';
import { onPath, runCommand } from '../../devkit/command.js';
import {
  localPrometheusConfig,
  promRangeQuery,
  readStackPrometheusConfig,
  startPrometheus,
} from '../../devkit/prometheus.js';
import { builtDashboards, runChecks, type CheckResult, type VerifyConfig } from './checks.js';
import { main } from './cli.js';
import { grafanaClient } from './grafana-api.js';
import { panelTitles } from './panel-requests.js';
import { RUN_RECORD } from './run-record.js';
import { gridRows, takeScreenshots } from './screenshots.js';
import {
  startGrafanaDouble,
  type GrafanaDouble,
  type GrafanaDoubleOptions,
} from './testing/grafana-double.js';
import { startInflux2Double, type Influx2Double } from './testing/influx2-double.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BUNDLE = join(ROOT, 'dist/k6/scenarios/load/mixed-traffic.js');
const SECRETS = {
  user: 'admin',
  password: 'grafana-double-secret',
  token: 'influx-double-token',
  org: 'loadlab',
};

async function spawnRun(
  args: string[],
  cwd: string,
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; output: string }> {
  const { code, output } = await runCommand(process.execPath, args, { cwd, env, timeoutMs: 180_000 });
  return { code: code ?? 1, output: output.slice(-4000) };
}

describe('stack:verify against real InfluxDB 1.6 and Prometheus, Grafana and Flux doubles', function () {
  this.timeout(240_000);
  let root = '';
  let influx: Daemon | undefined;
  let prometheus: Daemon | undefined;
  let targets: Targets | undefined;
  let influx2: Influx2Double | undefined;
  let grafana: GrafanaDouble | undefined;
  let exitCode = -1;

  const config = (grafanaUrl = grafana!.url): VerifyConfig => ({
    root,
    grafana: grafanaClient(grafanaUrl, SECRETS.user, SECRETS.password),
    influx: { url: influx2!.url, token: SECRETS.token, org: SECRETS.org, bucket: 'k6' },
    prometheusUrl: prometheus!.url,
    uid: process.getuid?.(),
  });
  const failures = (results: CheckResult[]) =>
    results.filter((r) => !r.ok).map((r) => `${r.name}: ${r.detail}`);
  /** A Grafana double on the real InfluxDB's k6 database and the real Prometheus, unless told otherwise. */
  const startDouble = (options: Partial<GrafanaDoubleOptions>) =>
    startGrafanaDouble({
      root,
      user: SECRETS.user,
      password: SECRETS.password,
      influxUrl: influx!.url,
      influxDb: 'k6',
      influxToken: SECRETS.token,
      prometheusUrl: prometheus!.url,
      ...options,
    });

  before(async function () {
    for (const tool of ['influxd', 'prometheus']) {
      if (!onPath(tool)) {
        console.warn(`      skipped: ${tool} is not installed (./scripts/setup.sh installs it)`);
        this.skip();
      }
    }
    if (!existsSync(BUNDLE)) throw new Error('dist/k6 is missing: npm run build:k6');
    // A checkout as stack:verify reads it: the repository's provisioning, dashboards and stack files,
    // and a results/ folder of its own.
    root = mkdtempSync(join(tmpdir(), 'loadlab-verify-'));
    for (const dir of ['provisioning', 'dashboards', 'stack']) symlinkSync(join(ROOT, dir), join(root, dir));
    mkdirSync(join(root, 'results/stack'), { recursive: true });

    influx = await startInfluxd({
      dataDir: join(root, 'influx'),
      httpPort: await freePort(),
      rpcPort: await freePort(),
    });
    targets = await startTargets();
    const local = Object.fromEntries(
      targets.targets.map((t) => [t.composeTarget, new URL(t.server.url).host]),
    );
    const promConfig = localPrometheusConfig(readStackPrometheusConfig(), local, { scrapeInterval: '1s' });
    prometheus = await startPrometheus({
      dataDir: join(root, 'prometheus'),
      port: await freePort(),
      config: promConfig,
    });

    // The run, as compose.sh's stream makes it: a testid tag, the window and exit code in the record.
    const sandbox = await startTestSandbox();
    const testid = `20261126T000000Z-mixed-traffic-${process.pid}`;
    const started = Math.floor(Date.now() / 1000);
    try {
      const run = await spawnRun(
        [
          join(ROOT, 'bin/loadlab.js'),
          'run',
          BUNDLE,
          '-o',
          `influxdb=${influx.url}/k6`,
          '--vus',
          '2',
          '--duration',
          '3s',
          '--tag',
          `testid=${testid}`,
          '-e',
          `BASE_URL=${sandbox.url}`,
          '-q',
        ],
        root,
        { ...process.env, ...TEST_CREDENTIALS, LOG_LEVEL: 'silent', LT_THINK_TIME: '0.2' },
      );
      exitCode = run.code;
      if (run.code !== 0 && run.code !== 99) throw new Error(`the run exited ${run.code}: ${run.output}`);
    } finally {
      await sandbox.close();
    }
    const ended = Math.ceil(Date.now() / 1000);
    writeFileSync(
      join(root, RUN_RECORD),
      `testid=${testid}\nscenario=scenarios/load/mixed-traffic\nprofile=load\nstarted=${started}\nended=${ended}\nexit=${exitCode}\n`,
    );

    await pollUntil(
      'a first scrape of every job',
      async () =>
        (await promRangeQuery(prometheus!.url, 'up == 1', 10)).length === targets!.targets.length
          ? true
          : undefined,
      30_000,
    );
    await boundedLoad(targets.targets, 3000, 2000);
    await new Promise((r) => setTimeout(r, 1500));

    influx2 = await startInflux2Double({
      influx1Url: influx.url,
      token: SECRETS.token,
      org: SECRETS.org,
      bucket: 'k6',
    });
    grafana = await startDouble({});
  });

  after(async () => {
    await grafana?.close();
    await influx2?.close();
    await prometheus?.stop();
    await targets?.close().catch(() => {}); // the last test closed the sandbox already
    await influx?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it('passes every check, one line each, and exits 0 (the CLI as npm run stack:verify runs it)', async () => {
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    const summary = join(root, 'step-summary.md');
    let code: number;
    try {
      code = await main(
        [],
        {
          GRAFANA_ADMIN_PASSWORD: SECRETS.password,
          INFLUXDB_ADMIN_TOKEN: SECRETS.token,
          LOADLAB_STACK_GRAFANA_URL: grafana!.url,
          LOADLAB_STACK_INFLUXDB_URL: influx2!.url,
          LOADLAB_STACK_PROMETHEUS_URL: prometheus!.url,
          GITHUB_STEP_SUMMARY: summary,
        },
        root,
      );
    } finally {
      console.log = log;
    }
    console.log(lines.map((l) => `      ${l}`).join('\n'));
    assert.deepEqual(grafana!.violations, [], 'requests Grafana would not take');
    assert.deepEqual(influx2!.violations, [], 'requests InfluxDB 2 would not take');
    assert.deepEqual(lines.filter((l) => !l.startsWith('ok   ')).slice(0, -1), []);
    assert.equal(code, 0);
    // Every panel of both dashboards was asked through /api/ds/query, and each datasource's health.
    assert.ok(lines.filter((l) => l.startsWith('ok   panel loadlab-k6 / ')).length >= 18, lines.join('\n'));
    assert.ok(
      lines.filter((l) => l.startsWith('ok   panel loadlab-services / ')).length >= 8,
      lines.join('\n'),
    );
    for (const name of [
      'grafana datasource loadlab-influxdb',
      'grafana datasource loadlab-prometheus',
      'grafana dashboard loadlab-k6',
      'grafana dashboard loadlab-services',
      'influxdb points of the run (Flux, /api/v2/query)',
      'prometheus scrape targets',
      'k6 exit code agrees with its thresholds',
      'summary files belong to the user',
    ])
      assert.ok(
        lines.some((l) => l.startsWith(`ok   ${name}:`)),
        `${name}\n${lines.join('\n')}`,
      );
    assert.match(readFileSync(summary, 'utf8'), /### stack:verify: all \d+ checks passed/);
  });

  it('--cloud reads a run back through the v2 query API with the K6_INFLUXDB_* variables, and fails an unknown run', async () => {
    const testid = /^testid=(.+)$/m.exec(readFileSync(join(root, RUN_RECORD), 'utf8'))![1]!;
    const env = {
      K6_INFLUXDB_ADDR: influx2!.url,
      K6_INFLUXDB_ORGANIZATION: SECRETS.org,
      K6_INFLUXDB_BUCKET: 'k6',
      K6_INFLUXDB_TOKEN: SECRETS.token,
    };
    const lines: string[] = [];
    const log = console.log;
    console.log = (line: string) => lines.push(line);
    try {
      assert.equal(await main(['--cloud', testid], env, root), 0);
      assert.equal(await main(['--cloud', 'no-such-run'], env, root), 1);
    } finally {
      console.log = log;
    }
    assert.match(
      lines[0]!,
      /^ok {3}influxdb cloud points of the run \(Flux, \/api\/v2\/query\): [1-9]\d* points with testid /,
    );
    assert.match(lines[1]!, /^FAIL influxdb cloud points of the run .*: 0 points with testid no-such-run/);
    assert.deepEqual(influx2!.violations, []);
  });

  it('the clinic pool panel is expected empty where the clinics run on memory, and is', async () => {
    const { results } = await runChecks(config());
    const pool = results.find((r) => r.name === 'panel loadlab-services / Clinic database pool');
    assert.ok(pool?.ok, JSON.stringify(pool));
    assert.match(pool!.detail, /empty as expected/);
  });

  it('fails a dashboard Grafana did not provision', async () => {
    const hidden = await startDouble({ hide: ['loadlab-services'] });
    try {
      const failed = failures((await runChecks(config(hidden.url))).results);
      assert.deepEqual(failed, ['grafana dashboard loadlab-services: HTTP 404: not provisioned']);
    } finally {
      await hidden.close();
    }
  });

  it('fails every panel that must show data when Grafana reads an empty database', async () => {
    await fetch(`${influx!.url}/query`, {
      method: 'POST',
      body: new URLSearchParams({ q: 'CREATE DATABASE empty' }),
    });
    const empty = await startDouble({ influxDb: 'empty' });
    try {
      const failed = failures((await runChecks(config(empty.url))).results);
      assert.ok(failed.length >= 15, failed.join('\n'));
      assert.ok(
        failed.every(
          (f) => f.startsWith('panel loadlab-k6 / ') && /no data, though the run recorded/.test(f),
        ),
        failed.join('\n'),
      );
    } finally {
      await empty.close();
    }
  });

  it('fails an exit code at odds with the thresholds', async () => {
    const record = join(root, RUN_RECORD);
    const text = readFileSync(record, 'utf8');
    try {
      writeFileSync(record, text.replace(/^exit=\d+$/m, `exit=${exitCode === 0 ? 99 : 0}`));
      const failed = failures((await runChecks(config())).results);
      assert.equal(failed.length, 1, failed.join('\n'));
      assert.match(failed[0]!, /^k6 exit code agrees with its thresholds: k6 exited (0 though|99 though)/);
    } finally {
      writeFileSync(record, text);
    }
  });

  it('fails a summary file the user does not own', async function () {
    if (process.getuid?.() !== 0) {
      console.warn('      skipped: chown needs root');
      this.skip();
    }
    const latest = join(root, 'results/summary-latest.json');
    chownSync(latest, 4321, 4321);
    try {
      const failed = failures((await runChecks(config())).results);
      assert.deepEqual(failed, [
        `summary files belong to the user: results/summary-latest.json owned by uid 4321`,
      ]);
    } finally {
      chownSync(latest, 0, 0);
    }
  });

  it('the Grafana double refuses a query Grafana would not take (a variable left unfilled)', async () => {
    const before = grafana!.violations.length;
    const client = grafanaClient(grafana!.url, SECRETS.user, SECRETS.password);
    const response = await fetch(`${grafana!.url}/api/ds/query?ds_type=influxdb`, {
      method: 'POST',
      headers: {
        Authorization: client.authorization,
        'Content-Type': 'application/json',
        'X-Plugin-Id': 'influxdb',
        'X-Datasource-Uid': 'loadlab-influxdb',
      },
      body: JSON.stringify({
        from: '0',
        to: '1',
        queries: [
          {
            refId: 'A',
            datasource: { type: 'influxdb', uid: 'loadlab-influxdb' },
            query: 'SELECT 1 FROM "x" WHERE $timeFilter',
            rawQuery: true,
            intervalMs: 1000,
            maxDataPoints: 10,
          },
        ],
      }),
    });
    assert.equal(response.status, 400);
    assert.match(grafana!.violations.slice(before).join('\n'), /left unfilled/);
    grafana!.violations.splice(before);
  });

  describe("screenshots in Chromium (the double's page carries the markers Grafana 11.6 puts on panels)", () => {
    const shoot = async (grafanaUrl: string, dir: string) => {
      const { record, window, emptyPanels } = await runChecks(config(grafanaUrl));
      return takeScreenshots({
        grafanaUrl,
        authorization: config().grafana.authorization,
        testid: record!.testid,
        window: window!,
        dashboards: builtDashboards(root).map((d) => ({
          uid: d.uid!,
          panels: panelTitles(d, { rows: false }),
          empty: emptyPanels.get(d.uid!) ?? new Set(),
          gridRows: gridRows(d),
        })),
        dir: join(root, dir),
        env: {},
        timeoutMs: 30_000,
      });
    };
    before(function () {
      if (!onPath('chromium')) {
        console.warn('      skipped: no Chromium (./scripts/setup.sh installs it)');
        this.skip();
      }
    });

    it('waits for every panel, saves one PNG per dashboard, and accepts "No data" only where expected', async () => {
      const results = await shoot(grafana!.url, 'shots');
      assert.deepEqual(failures(results), []);
      assert.deepEqual(grafana!.violations, []);
      for (const uid of ['loadlab-k6', 'loadlab-services']) {
        const png = readFileSync(join(root, 'shots', `${uid}.png`));
        assert.equal(png.subarray(1, 4).toString(), 'PNG');
        assert.ok(png.length > 10_000, `${uid}.png is ${png.length} bytes`);
      }
      const k6 = results.find((r) => r.name === 'screenshot loadlab-k6')!;
      assert.match(k6.detail, /: 20 panels loaded, [1-9]\d* empty as expected$/);
    });

    it("settles on a page with what Grafana 11.6's UI keeps there: indicators that never go, 5 s reloads, a live panel", async () => {
      const chrome = await startDouble({ grafanaChrome: true });
      try {
        const results = await shoot(chrome.url, 'shots-chrome');
        assert.deepEqual(failures(results), []);
        assert.deepEqual(chrome.violations, []);
        for (const result of results) {
          assert.match(result.detail, /; 1 streaming; /);
          assert.match(
            result.detail,
            /loading indicators outside the panels stayed: data-testid Loading indicator, Spinner$/,
          );
          assert.ok(existsSync(result.file!), result.name);
        }
      } finally {
        await chrome.close();
      }
    });

    it('npm run stack:screenshots: only the screenshot lines, PNGs in the folder given, exit 0', async () => {
      const lines: string[] = [];
      const log = console.log;
      console.log = (line: string) => lines.push(line);
      let code: number;
      try {
        code = await main(
          ['screenshots', 'cli-shots'],
          {
            GRAFANA_ADMIN_PASSWORD: SECRETS.password,
            INFLUXDB_ADMIN_TOKEN: SECRETS.token,
            LOADLAB_STACK_GRAFANA_URL: grafana!.url,
            LOADLAB_STACK_INFLUXDB_URL: influx2!.url,
            LOADLAB_STACK_PROMETHEUS_URL: prometheus!.url,
          },
          root,
        );
      } finally {
        console.log = log;
      }
      assert.equal(code, 0, lines.join('\n'));
      assert.deepEqual(
        lines.map((l) => l.split(':')[0]),
        ['ok   screenshot loadlab-k6', 'ok   screenshot loadlab-services', 'stack'],
      );
      assert.ok(existsSync(join(root, 'cli-shots/loadlab-services.png')));
    });

    it('fails panels that show "No data" where the run has data, and panels that show an error', async () => {
      await fetch(`${influx!.url}/query`, {
        method: 'POST',
        body: new URLSearchParams({ q: 'CREATE DATABASE empty' }),
      });
      for (const [db, pattern] of [
        ['empty', /Requests: No data/],
        ['missing', /Requests: shows an error/],
      ] as const) {
        const broken = await startDouble({ influxDb: db });
        try {
          const results = await shoot(broken.url, `shots-${db}`);
          const k6 = results.find((r) => r.name === 'screenshot loadlab-k6')!;
          assert.equal(k6.ok, false);
          assert.match(k6.detail, pattern);
          assert.ok(results.find((r) => r.name === 'screenshot loadlab-services')?.ok);
          assert.ok(existsSync(join(root, `shots-${db}`, 'loadlab-k6.png')), 'the PNG is saved to look at');
        } finally {
          await broken.close();
        }
      }
    });
  });

  // After the nested describes above (mocha runs a describe's own tests first): it stops the sandbox.
  describe('a target down', () => {
    it('fails a scrape target that is down (run last: it stops the sandbox)', async () => {
      const sandbox = targets!.targets.find((t) => t.composeTarget.startsWith('sandbox'))!;
      await sandbox.server.close();
      await pollUntil(
        'Prometheus to see the sandbox down',
        async () =>
          (await promRangeQuery(prometheus!.url, 'up{job="sandbox"} == 0', 5)).length ? true : undefined,
        20_000,
      );
      const failed = failures((await runChecks(config())).results);
      assert.ok(
        failed.some((f) => /^prometheus scrape targets: sandbox \S+: down/.test(f)),
        failed.join('\n'),
      );
    });
  });
});
