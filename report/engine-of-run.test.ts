// The engine line run-k6.sh writes, as the report reads it, and the comparison's warning.
import assert from 'node:assert/strict';
import { compareScenario } from './compare.js';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeEngine, logPathFor, parseEngineLine, readEngine } from './engine-of-run.js';
import { buildReport, type ScenarioReport } from './model.js';
import { scenarioReport } from './test-helpers.js';

const scenario = (engine?: ScenarioReport['engine']): ScenarioReport =>
  scenarioReport(engine ? { engine } : {});

describe('report: which engine ran', () => {
  it('reads the last engine line of a log, with its version, and older lines without one', () => {
    const log = [
      'run-k6: engine node (no k6 on PATH and no usable container engine); version loadlab 0.1.0',
      '  execution: local',
    ].join('\n');
    assert.deepEqual(parseEngineLine(log), { name: 'node', version: 'loadlab 0.1.0' });
    assert.deepEqual(parseEngineLine('run-k6: engine k6 (k6 v1.3.0 on PATH)\n'), { name: 'k6' });
    assert.deepEqual(
      parseEngineLine(
        'run-k6: engine docker (LT_ENGINE=docker), grafana/k6:1.3.0; the container calls BASE_URL=x through y; version grafana/k6:1.3.0',
      ),
      { name: 'docker', version: 'grafana/k6:1.3.0' },
    );
    assert.equal(parseEngineLine('a log\nwith no engine line\n'), undefined);
  });

  it('finds the log beside a run file and names the engine in words', () => {
    assert.equal(
      logPathFor({ summaryPath: 'results/runs/20261122T100000Z-smoke.json' }),
      'results/runs/20261122T100000Z-smoke.log',
    );
    assert.equal(logPathFor({ seriesPath: 'r/x.ndjson.gz' }), 'r/x.log');
    assert.equal(describeEngine({ name: 'node', version: 'loadlab 0.1.0' }), 'Node runner (loadlab 0.1.0)');
    assert.equal(
      describeEngine({ name: 'docker', version: 'grafana/k6:1.3.0' }),
      'k6 in a container (grafana/k6:1.3.0)',
    );
    assert.equal(describeEngine(undefined), 'not recorded');
  });

  it('the comparison warns when the previous run used another engine or another version, not when they match', () => {
    const node = { name: 'node', version: 'loadlab 0.1.0' };
    const k6 = { name: 'k6', version: 'k6 v1.3.0' };
    assert.equal(compareScenario(scenario(k6), scenario(k6), 'r1').engineWarning, undefined);
    assert.equal(
      compareScenario(scenario(k6), scenario(node), 'r1').engineWarning,
      'run r1 ran on Node runner (loadlab 0.1.0), this one ran on k6 (k6 v1.3.0): the numbers are not comparable',
    );
    assert.match(
      compareScenario(scenario({ name: 'k6', version: 'k6 v1.4.0' }), scenario(k6), 'r1').engineWarning ?? '',
      /k6 v1\.3\.0.*k6 v1\.4\.0/,
    );
    assert.match(
      compareScenario(scenario(k6), scenario(), 'r1').engineWarning ?? '',
      /^run r1 recorded no engine, this one ran on k6/,
    );
    assert.equal(compareScenario(scenario(), scenario(), 'r1').engineWarning, undefined);
    assert.equal(buildReport([scenario(k6)]).passed, true);
  });

  it('reads the engine from <stem>.engine beside a summary when no log says it (test:ci)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-engine-'));
    try {
      const summaryPath = join(dir, 'summary-smoke-ci-2026-11-26T04-00-00Z.json');
      assert.equal(await readEngine({ summaryPath }), undefined);
      writeFileSync(
        summaryPath.replace(/\.json$/, '.engine'),
        'run-k6: engine k6 (k6 v1.3.0 on PATH); version k6 v1.3.0\n',
      );
      assert.deepEqual(await readEngine({ summaryPath }), { name: 'k6', version: 'k6 v1.3.0' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
