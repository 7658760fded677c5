// `loadlab run` on the k6-golden sc.js (constant-arrival-rate with dropped iterations next to a
// shared-iterations scenario) against what real k6 v1.3 printed for it (k6-golden/sc.out).
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { runLoadlab } from '../../devkit/loadlab-run.js';
import { K6_GOLDEN } from '../../devkit/k6-reference.js';

const GOLDEN = K6_GOLDEN;

describe('runner/run/run on k6-golden sc.js', function () {
  this.timeout(60_000);

  it('drops, warns and grows VUs as k6 did (sc.out)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-sc-'));
    const out = join(dir, 'sc.ndjson');
    const result = await runLoadlab([`${GOLDEN}/sc.js`, '-o', `json=${out}`, '-q']);
    assert.equal(result.code, 0, result.stderr);

    // k6: one warning line, at warning level, with the executor and scenario fields.
    const warnings = result.stderr.split('\n').filter((l) => l.includes('Insufficient VUs'));
    assert.equal(warnings.length, 1, result.stderr);
    assert.match(
      warnings[0]!,
      /level=warning msg="Insufficient VUs, reached 2 active VUs and cannot initialize more" executor=constant-arrival-rate scenario=zeta_car$/,
    );

    const points = ndjsonPoints(readFileSync(out, 'utf8'));
    const count = (metric: string, scenario: string) =>
      points.filter((p) => p.metric === metric && p.data.tags?.scenario === scenario).length;
    const dropped = points.filter((p) => p.metric === 'dropped_iterations');
    assert.ok(
      dropped.every(
        (p) => p.data.value === 1 && p.data.tags?.scenario === 'zeta_car' && p.data.tags.kind === 'car',
      ),
      'dropped_iterations: value 1, tagged with the scenario and its tags',
    );
    // k6: 9 iterations and 12 dropped of zeta_car's 10/s for 2 s (sleep 0.4 s on at most 2 VUs);
    // 4 of alpha_si; vus_max 4 (3 initialised before the start, 1 grown).
    const ran = count('iterations', 'zeta_car');
    assert.ok(ran >= 7 && ran <= 10, `zeta_car ran ${ran} iterations`);
    assert.ok(dropped.length >= 10, `${dropped.length} dropped`);
    assert.ok(
      ran + dropped.length >= 20 && ran + dropped.length <= 21,
      `${ran} + ${dropped.length} arrivals`,
    );
    assert.equal(count('iterations', 'alpha_si'), 4);
    const vusMax = points.filter((p) => p.metric === 'vus_max').map((p) => p.data.value);
    assert.equal(Math.max(...vusMax), 4);
  });

  it('counts the VUs an arrival-rate scenario grows in the progress line, as k6 does', async () => {
    const result = await runLoadlab([`${GOLDEN}/sc.js`, '--summary-mode=disabled']);
    assert.equal(result.code, 0, result.stderr);
    // Progress is on stdout, as k6 writes it when stdout is not a terminal.
    const progress = result.stdout.split('\n').filter((l) => l.startsWith('running ('));
    // The last line: 0 active of the 4 initialised (3 before the start, 1 grown), not of the first 3.
    assert.match(
      progress.at(-1)!,
      /^running \([\dm.s]+\), 0\/4 VUs, \d+ complete and \d+ interrupted iterations$/,
    );
  });
});
