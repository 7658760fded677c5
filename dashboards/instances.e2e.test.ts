// A distributed run reads as one test: three real k6 processes, each with its k6-operator execution
// segment and instance_id tag, stream one testid into a real InfluxDB 1.x; the k6 dashboard's overview
// counts 3 instances and sums their VUs, and a single-process run next to it counts 1.
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '@loadlab/services';
import { influxQuery, startInfluxd } from '../devkit/influxdb.js';
import { freePort, type Daemon } from '../devkit/processes.js';
import { realK6 } from '../devkit/real-k6.js';
import { onPath, runCommand } from '../devkit/command.js';
import { REPO_ROOT } from '../devkit/script-process.js';
import { JSON_DIR } from './build.js';
import { SMOKE_BUNDLE, streamRunnerSmoke, type StreamedRun } from './testing/influx-data.js';
import { fillVariables, influxRegexValue, panelQueries } from './queries.js';

const DB = 'k6';
const dashboard = JSON.parse(readFileSync(join(JSON_DIR, 'k6-load-test.json'), 'utf8')) as {
  panels: unknown[];
};
const CREDENTIALS = { DEMO_EMAIL: 'instances@loadlab.local', DEMO_PASSWORD: `pw-${process.pid}` };

async function k6Run(
  k6: string,
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { code, output } = await runCommand(k6, ['run', ...args], {
    cwd: REPO_ROOT, // the bundles are named from the repository
    env: { HOME: tmpdir(), ...env },
    timeoutMs: 90_000,
  });
  return { code, output: output.slice(-4000) };
}

describe('k6 dashboard: a distributed run (3 instances) against a real InfluxDB 1.x', function () {
  this.timeout(180_000);
  const k6 = realK6();
  let influx: Daemon | undefined;
  let dataDir = '';
  let single: StreamedRun;
  const distributed = { testid: `distributed-${Date.now()}`, fromMs: 0, toMs: 0 };
  const ITERATIONS = 6;

  before(async function () {
    if (!onPath('influxd') || !k6) {
      console.warn(
        '      skipped: needs influxd (scripts/setup.sh) and the reference k6 (../shared/tools/k6)',
      );
      return this.skip();
    }
    dataDir = mkdtempSync(join(tmpdir(), 'loadlab-influx-instances-'));
    influx = await startInfluxd({ dataDir, httpPort: await freePort(), rpcPort: await freePort() });
    single = await streamRunnerSmoke(influx.url, DB);
    const sandbox = await startSandbox({
      ...process.env,
      ...CREDENTIALS,
      LOG_LEVEL: 'silent',
      PORT: '0',
      HOST: '127.0.0.1',
    });
    distributed.fromMs = Date.now() - 60_000;
    try {
      // As k6-operator starts runner i of 3 (segments, instance_id), with the TestRun's testid tag.
      const results = await Promise.all(
        [1, 2, 3].map((i) => {
          const point = (n: number) => (n === 0 ? '0' : n === 3 ? '1' : `${n}/3`);
          return k6Run(
            k6!,
            [
              '--quiet',
              `--execution-segment=${point(i - 1)}:${point(i)}`,
              '--execution-segment-sequence=0,1/3,2/3,1',
              '--tag',
              `testid=${distributed.testid}`,
              '-o',
              `influxdb=${influx!.url}/${DB}`,
              '--vus',
              '3',
              '--iterations',
              String(ITERATIONS),
              '--summary-mode=disabled',
              SMOKE_BUNDLE,
              '--tag',
              `instance_id=${i}`,
            ],
            {
              ...CREDENTIALS,
              BASE_URL: sandbox.url,
              LT_INSTANCE: `runner-${i}`,
              LT_RESULTS_DIR: dataDir,
              K6_NO_USAGE_REPORT: 'true',
            },
          );
        }),
      );
      for (const r of results) assert.equal(r.code, 0, r.output);
    } finally {
      await sandbox.close();
    }
    distributed.toMs = Date.now() + 60_000;
  });

  after(async () => {
    await influx?.stop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  async function overview(
    panel: string,
    run: { testid: string; fromMs: number; toMs: number },
  ): Promise<number> {
    const [query] = panelQueries(dashboard).filter((q) => q.panel === panel);
    const text = fillVariables(query!.text, {
      testid: influxRegexValue(run.testid),
      scenario: '.*',
      timeFilter: `time >= ${run.fromMs}ms and time <= ${run.toMs}ms`,
    });
    const series = await influxQuery(influx!.url, DB, text);
    assert.equal(series.length, 1, `${panel}: ${JSON.stringify(series)}`);
    return series[0]!.values[0]![1] as number;
  }

  it('counts the instances of each run', async () => {
    assert.equal(await overview('Instances', distributed), 3);
    assert.equal(await overview('Instances', single), 1, 'a single k6 (or the Node runner) is one instance');
  });

  it('sums the VUs of the instances, and reads the whole run as one test', async () => {
    assert.equal(await overview('Peak VUs', distributed), 3, 'one VU per runner, 3 together');
    assert.equal(await overview('Peak VUs', single), 2);
    assert.equal(await overview('Iterations', distributed), ITERATIONS);
    assert.equal(await overview('Requests', distributed), ITERATIONS * 3);
  });

  it('the VU time series is the sum over instances in each bucket', async () => {
    const [query] = panelQueries(dashboard).filter((q) => q.panel === 'Virtual users' && q.refId === 'B');
    const text = fillVariables(query!.text, {
      testid: influxRegexValue(distributed.testid),
      timeFilter: `time >= ${distributed.fromMs}ms and time <= ${distributed.toMs}ms`,
      __interval: '10s',
    });
    const [series] = await influxQuery(influx!.url, DB, text);
    const values = series!.values.map((row) => row[1]).filter((v): v is number => typeof v === 'number');
    assert.equal(Math.max(...values), 3, JSON.stringify(series));
  });
});
