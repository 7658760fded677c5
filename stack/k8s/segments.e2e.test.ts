// What k6-operator relies on, on the real k6 v1.3.0: started once per runner pod with the operator's
// --execution-segment/--execution-segment-sequence, the suite's runners together reach exactly the
// profile's VUs and iterations, and each pod keeps its own summary files on a shared volume.
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { bundleSuite, suiteEntryPoints } from '../../k6/build.js';
import { createSandboxApp, listen, type StartedServer } from '@loadlab/services';
import { PROFILE_NAMES, profileByName } from '../../k6/lib/profiles.js';
import { freePort } from '../../devkit/processes.js';
import { realK6 } from '../../devkit/real-k6.js';
import { startProcess, untilReady, type ScriptProcess } from '../../devkit/script-process.js';
import { runnersWithVus, scenarioVus, totalVus } from './bundle-vus.js';
import { k6Arguments } from './testrun.js';
import { parseManifestArgs } from './manifest-args.js';

const CREDENTIALS = { DEMO_EMAIL: 'seg@loadlab.local', DEMO_PASSWORD: 'seg-secret' };
const ADMIN = { ADMIN_USER: 'seg-admin', ADMIN_PASSWORD: 'seg-admin-secret' };

/**
 * The flags k6-operator v1.6.0 gives runner `index` (1-based) of `total`
 * (pkg/segmentation/segmentation.go): equal segments, the whole sequence on every runner.
 */
function operatorSegmentFlags(index: number, total: number): string[] {
  const point = (i: number) => (i === 0 ? '0' : i === total ? '1' : `${i}/${total}`);
  const sequence = Array.from({ length: total + 1 }, (_, i) => point(i)).join(',');
  return [
    `--execution-segment=${point(index - 1)}:${point(index)}`,
    `--execution-segment-sequence=${sequence}`,
  ];
}

/** k6 with only PATH, HOME (its config folder) and `env`, bounded at 90 s. */
function startK6(k6: string, args: string[], env: Record<string, string>, cwd: string): ScriptProcess {
  return startProcess(k6, args, { cwd, env: { HOME: cwd, ...env }, killAfterMs: 90_000 });
}

/** k6's lib.ExecutionStatus: after InitVUs (1), InitExecutors (2) and InitDone (3). */
const PAUSED_BEFORE_RUN = 4;

/** k6's REST API (what the operator's starter talks to): the VUs a paused runner has initialised. */
async function pausedVusMax(port: number, runner: ScriptProcess): Promise<number> {
  return untilReady(
    runner,
    `k6 on ${port} to report a paused status`,
    async () => {
      const res = await fetch(`http://127.0.0.1:${port}/v1/status`);
      const body = (await res.json()) as { data: { attributes: { 'vus-max': number; status: number } } };
      // paused is true from the start; status 4 (PausedBeforeRun) comes once every VU is initialised.
      return body.data.attributes.status === PAUSED_BEFORE_RUN ? body.data.attributes['vus-max'] : undefined;
    },
    60_000,
    200,
  );
}

describe('execution segments on real k6 (what k6-operator relies on)', function () {
  this.timeout(300_000);
  const k6 = realK6();
  let bundles: string;
  let sandbox: StartedServer;

  before(async function () {
    if (!k6) {
      console.warn('      skipped: the reference k6 (../shared/tools/k6 or REAL_K6) is not here');
      return this.skip();
    }
    bundles = mkdtempSync(join(tmpdir(), 'loadlab-seg-bundles-'));
    await bundleSuite(suiteEntryPoints(), bundles);
    sandbox = await listen(
      createSandboxApp({
        demoEmail: CREDENTIALS.DEMO_EMAIL,
        demoPassword: CREDENTIALS.DEMO_PASSWORD,
        tokenSecret: 'segments',
        tokenTtlSeconds: 600,
        faults: { enabled: false, latencyMs: 0, errorRate: 0 },
      }),
      0,
      '127.0.0.1',
    );
  });
  after(async () => {
    await sandbox?.close();
  });

  /** Starts `total` paused runners as the operator does, reads each one's VUs, then stops them all. */
  async function runnerVus(bundle: string, profile: string, total: number): Promise<number[]> {
    const cwd = mkdtempSync(join(tmpdir(), 'loadlab-seg-paused-'));
    const runners = await Promise.all(
      Array.from({ length: total }, async (_, i) => {
        const port = await freePort();
        const args = ['run', '--quiet', ...operatorSegmentFlags(i + 1, total), '-e', `LT_PROFILE=${profile}`];
        args.push('--summary-mode=disabled', bundle, `--address=127.0.0.1:${port}`, '--paused');
        return {
          port,
          runner: startK6(k6!, args, { ...CREDENTIALS, ...ADMIN, K6_NO_USAGE_REPORT: 'true' }, cwd),
        };
      }),
    );
    try {
      return await Promise.all(runners.map(({ port, runner }) => pausedVusMax(port, runner)));
    } finally {
      await Promise.all(runners.map(({ runner }) => runner.stop('SIGKILL')));
    }
  }

  it('every profile: the VUs of paused runners add up to the profile peak, each runner with some', async () => {
    const bundle = join(bundles, 'scenarios/load/mixed-traffic.js');
    for (const profile of PROFILE_NAMES) {
      const peak = Math.max(...profileByName(profile, {}).stages.map((s) => s.target));
      const generatorView = await scenarioVus(bundle, profile);
      assert.equal(totalVus(generatorView), peak, `${profile}: the generator reads the profile's peak`);
      const total = Math.min(3, peak);
      const vus = await runnerVus(bundle, profile, total);
      assert.equal(
        vus.reduce((a, b) => a + b, 0),
        peak,
        `${profile}: ${vus.join('+')} != ${peak}`,
      );
      assert.ok(
        vus.every((v) => v >= 1),
        `${profile}: a runner without VUs: ${vus.join(', ')}`,
      );
      assert.ok(Math.max(...vus) - Math.min(...vus) <= 1, `${profile}: uneven split ${vus.join(', ')}`);
    }
  });

  it('several scenarios: runners with VUs are as many as the largest scenario has, as the generator says', async () => {
    const bundle = join(bundles, 'scenarios/clinic/secured-api.js');
    const scenarios = await scenarioVus(bundle, 'smoke');
    for (const total of [2, 3]) {
      const vus = await runnerVus(bundle, 'smoke', total);
      assert.equal(
        vus.reduce((a, b) => a + b, 0),
        totalVus(scenarios),
        vus.join('+'),
      );
      assert.equal(
        vus.filter((v) => v > 0).length,
        runnersWithVus(scenarios, total),
        `${total}: ${vus.join(', ')}`,
      );
    }
  });

  it("the operator's initializer (k6 archive + k6 inspect) accepts the TestRun's arguments", async () => {
    const args = parseManifestArgs(
      ['scenarios/load/mixed-traffic', '--parallelism', '3', '--profile', 'stress'],
      ['scenarios/load/mixed-traffic'],
    );
    // k6-operator v1.6.0 drops `-o X` from the archive call (k6 archive has no --out) and adds one
    // `-e NAME=value` per runner env variable before `-O`.
    const words = k6Arguments(args, 'init-test').split(' ');
    const archiveArgs = words.filter((_, i) => words[i] !== '-o' && words[i - 1] !== '-o');
    const cwd = mkdtempSync(join(tmpdir(), 'loadlab-seg-init-'));
    const envFlags = Object.entries({ ...CREDENTIALS, ...ADMIN, BASE_URL: 'http://sandbox:5050' }).flatMap(
      ([k, v]) => ['-e', `${k}=${v}`],
    );
    const archive = startK6(
      k6!,
      [
        'archive',
        join(bundles, 'scenarios/load/mixed-traffic.js'),
        ...envFlags,
        '-O',
        'test.tar',
        ...archiveArgs,
      ],
      { K6_NO_USAGE_REPORT: 'true' },
      cwd,
    );
    assert.equal(await archive.closed, 0, archive.output());
    const inspect = startK6(k6!, ['inspect', '--execution-requirements', 'test.tar'], {}, cwd);
    assert.equal(await inspect.closed, 0, inspect.output());
    const requirements = JSON.parse(inspect.output().slice(inspect.output().indexOf('{'))) as {
      maxVUs: number;
    };
    assert.equal(
      requirements.maxVUs,
      100,
      "the arguments' stress profile, not the script's default (load, 25)",
    );
  });

  it('a run split over 3 runners adds up to the totals; each runner writes its own summary files', async () => {
    const results = mkdtempSync(join(tmpdir(), 'loadlab-seg-results-'));
    const cwd = mkdtempSync(join(tmpdir(), 'loadlab-seg-run-'));
    const args = parseManifestArgs(
      [
        'scenarios/smoke/api-health',
        '--parallelism',
        '3',
        '--profile',
        'smoke',
        '--influxdb-url',
        'http://127.0.0.1:1',
      ],
      ['scenarios/smoke/api-health'],
    );
    // The TestRun's own arguments; the reference k6 has no xk6-influxdb, so JSON stands in for it.
    const words = k6Arguments(args, 'seg-test').split(' ');
    const outputAt = words.indexOf('-o');
    const TOTAL = { iterations: 9, vus: 3 };
    const runners = [1, 2, 3].map((index) => {
      const own = [...words];
      own.splice(outputAt, 2, '-o', `json=${join(results, `samples-${index}.json`)}`);
      return startK6(
        k6!,
        [
          'run',
          '--quiet',
          ...operatorSegmentFlags(index, 3),
          ...own,
          // A short override of the profile: shared iterations add up exactly, ramping ones do not.
          '--vus',
          String(TOTAL.vus),
          '--iterations',
          String(TOTAL.iterations),
          join(bundles, 'scenarios/smoke/api-health.js'),
          '--tag',
          `instance_id=${index}`,
          '--tag',
          'testrun_name=loadlab-api-health-smoke',
        ],
        {
          ...CREDENTIALS,
          BASE_URL: sandbox.url,
          LT_RESULTS_DIR: results,
          LT_INSTANCE: `loadlab-api-health-smoke-${index}-abcde`,
          K6_NO_USAGE_REPORT: 'true',
        },
        cwd,
      );
    });
    const codes = await Promise.all(runners.map((r) => r.closed));
    codes.forEach((code, i) => assert.equal(code, 0, runners[i]!.output()));

    const latest = readdirSync(results).filter((f) => f.startsWith('summary-latest-'));
    assert.deepEqual(
      latest.sort(),
      [1, 2, 3].map((i) => `summary-latest-loadlab-api-health-smoke-${i}-abcde.json`),
    );
    assert.equal(
      readdirSync(results).filter((f) => /^summary-smoke-smoke-.*-abcde\.json$/.test(f)).length,
      3,
    );
    const summaries = latest.map(
      (f) =>
        JSON.parse(readFileSync(join(results, f), 'utf8')) as {
          metrics: Record<string, { values: Record<string, number> }>;
        },
    );
    const sum = (metric: string, value: string) =>
      summaries.reduce((a, s) => a + (s.metrics[metric]?.values[value] ?? 0), 0);
    assert.equal(sum('iterations', 'count'), TOTAL.iterations);
    assert.equal(sum('vus_max', 'value'), TOTAL.vus);
    assert.equal(sum('http_reqs', 'count'), TOTAL.iterations * 3, 'health, users and login per iteration');
    assert.equal(sum('checks', 'fails'), 0);

    // Every sample of runner i carries instance_id=i and the one testid: what the dashboards group by.
    for (const index of [1, 2, 3]) {
      const points = ndjsonPoints(readFileSync(join(results, `samples-${index}.json`), 'utf8'));
      assert.ok(points.length > 0);
      for (const p of points) {
        assert.equal(p.data.tags?.instance_id, String(index));
        assert.equal(p.data.tags?.testid, 'seg-test');
      }
    }
  });
});
