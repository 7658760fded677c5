// Every bundle of the suite on real k6 and on the runner, side by side against the project's own
// services, through scripts/run-k6.sh as `npm run test:*` runs them: both pass their checks, and
// exit code, summary data, check and group tree, summary files, NDJSON and InfluxDB line protocol
// agree (run-shape.ts), except what the load decides on a busy machine (load-decided.ts: time
// thresholds' verdicts, web-vital ratings). Needs a real k6 (../shared/tools/k6 here and in CI); skipped without one.
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleSuite, suiteEntryPoints } from '../build.js';
import { NO_REAL_K6, realK6Available } from '../../devkit/real-k6.js';
import { startInfluxCapture, type InfluxCapture } from '../../runner/testing/influx-capture.js';
import { explain, sideBySide, type EngineRun } from '../../runner/testing/side-by-side.js';
import { crossedTimeThresholds, failedOnTimingOnly, loadDecided } from '../../runner/testing/load-decided.js';
import { startSuiteServices, type SuiteServices } from './suite-services.js';

/**
 * The browser scenario runs as written (2 VUs, 4 iterations): `--vus`/`--iterations` would replace
 * its scenario and with it `options.browser.type`, and the browser would never start.
 */
const RUN_AS_WRITTEN = new Set(['scenarios/browser/login-page.js']);
/**
 * Scripts whose iterations pick what to request at random: counts and tag values differ by design,
 * and enough iterations run that both engines take every branch (the rarest, 15 %, is missed by
 * 60 iterations once in 17,000 runs).
 */
const RANDOM_PICKS = new Set(['scenarios/load/mixed-traffic.js']);
const SHORT_RUN = ['--vus', '2', '--iterations', '4'];
const argsFor = (relative: string): string[] =>
  RUN_AS_WRITTEN.has(relative)
    ? []
    : RANDOM_PICKS.has(relative)
      ? ['--vus', '20', '--iterations', '60']
      : SHORT_RUN;

/**
 * A web vital present on one engine only: Chromium delivers CLS and INP to its observers when it
 * gets to it, and a page that navigates or closes first never reports them. Real k6 itself reports
 * CLS in one run and not the next (runner/README.md, "Differences from real k6"). Where both
 * engines report a vital, its type, tags and fields are compared.
 */
const TIMING_DEPENDENT =
  /^(metric|NDJSON metric|NDJSON points of|InfluxDB measurement) browser_web_vital_\w+: only on (k6|runner)$/;

/**
 * Real k6 now and then cancels its own Chromium start on a loaded machine and aborts the run (exit
 * 108, "error building browser on IterStart: canceled", seen once in CI with both engines' browsers
 * starting side by side). That is k6's fault, not a difference: the pair runs once more, said.
 */
const K6_BROWSER_START_CANCELED = /error building browser on IterStart: canceled/;

async function sideBySideAgainIfK6CanceledItsBrowser(
  opts: Parameters<typeof sideBySide>[0],
): ReturnType<typeof sideBySide> {
  const first = await sideBySide(opts);
  if (!K6_BROWSER_START_CANCELED.test(first.k6.result.stderr)) return first;
  console.warn('      real k6 canceled its own Chromium start: the pair runs once more');
  return sideBySide(opts);
}

function assertPassed(run: EngineRun): void {
  const why = `${run.engine} exit ${run.result.code}\n${run.result.stdout}\n${run.result.stderr.slice(-3000)}`;
  // A latency threshold crossed on a busy machine is the load's verdict, not the engine's: said, not failed.
  if (failedOnTimingOnly(run.result.code, run.data)) {
    console.warn(`      ${run.engine}: the load crossed ${crossedTimeThresholds(run.data).join(', ')}`);
  } else {
    assert.equal(run.result.code, 0, why);
    assert.match(run.result.stdout, /: PASS/, why);
  }
  assert.ok(run.data, `${run.engine} wrote no summary data\n${why}`);
  assert.ok(run.data.metrics.checks!.values.passes! > 0, `${run.engine}: checks ran`);
  assert.equal(run.data.metrics.checks!.values.fails, 0, `${run.engine}: every check passed`);
}

describe('suite bundles on real k6 and the runner, side by side (e2e)', function () {
  this.timeout(180_000);
  let bundles: string;
  let services: SuiteServices;
  let influx: InfluxCapture;

  before(async function () {
    if (!realK6Available()) this.skip(); // NO_REAL_K6
    bundles = mkdtempSync(join(tmpdir(), 'loadlab-bundles-'));
    await bundleSuite(suiteEntryPoints(), bundles);
    services = await startSuiteServices();
    influx = await startInfluxCapture();
  });
  after(async () => {
    await services?.close();
    await influx?.close();
  });

  for (const entry of suiteEntryPoints()) {
    const relative = entry.replace(/^k6\//, '').replace(/\.ts$/, '.js');
    it(`${relative}: both engines pass; outputs agree`, async function () {
      if (!realK6Available()) this.skip();
      const {
        k6,
        node,
        differences: all,
      } = await sideBySideAgainIfK6CanceledItsBrowser({
        mode: 'suite',
        script: join(bundles, relative),
        args: [...argsFor(relative), '-q'],
        env: services.env(),
        influx,
        counts: !RANDOM_PICKS.has(relative),
      });
      const runs = {
        k6: { code: k6.result.code, data: k6.data },
        node: { code: node.result.code, data: node.data },
      };
      const differences = all.filter((d) => !TIMING_DEPENDENT.test(d) && !loadDecided(d, runs));
      assertPassed(k6);
      assertPassed(node);
      assert.deepEqual(differences, [], explain(differences, k6, node));
    });
  }

  it(`skips with a reason when there is no real k6: ${NO_REAL_K6}`, function () {
    if (realK6Available()) this.skip();
  });
});
