import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeChanges, snapshotChanges, snapshotFolder } from './results-guard.js';

describe('results guard: snapshot and compare a folder', () => {
  let root = '';
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'loadlab-guard-'));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('an absent folder is empty, so a run that creates nothing in it passes', () => {
    assert.deepEqual([...snapshotFolder(join(root, 'nope'))], []);
    assert.deepEqual(snapshotChanges(snapshotFolder(join(root, 'nope')), new Map()), []);
  });

  it('names what appeared, changed and disappeared, dangling links and nested folders included', () => {
    const results = join(root, 'results');
    mkdirSync(join(results, 'runs'), { recursive: true });
    writeFileSync(join(results, 'REPORT.md'), '# lab');
    writeFileSync(join(results, 'runs', 'a.json'), '{}');
    const before = snapshotFolder(results);
    assert.deepEqual(snapshotChanges(before, snapshotFolder(results)), []);

    writeFileSync(join(results, 'REPORT.md'), '# test run, FAIL');
    rmSync(join(results, 'runs', 'a.json'));
    mkdirSync(join(results, '.xk6'));
    symlinkSync(join(root, 'gone', 'k6'), join(results, '.xk6', 'k6'));
    writeFileSync(join(results, 'summary-smoke-ci-1.json'), '{}');
    const changes = snapshotChanges(before, snapshotFolder(results));
    assert.deepEqual(
      changes.map((c) => c.replace(/ \(.*$/, '')),
      [
        'added .xk6',
        'added .xk6/k6',
        'changed REPORT.md',
        'removed runs/a.json',
        'added summary-smoke-ci-1.json',
      ],
    );
    assert.match(changes[1]!, /link -> .*gone\/k6/);
    assert.match(
      describeChanges('results/', changes, 2),
      /^the tests changed results\/ \(5 entries\)[^]*… and 3 more$/,
    );
  });

  it('a file rewritten with the same size is a change (its modification time moved)', () => {
    const file = join(root, 'summary-latest.json');
    writeFileSync(file, '{"a":1}');
    utimesSync(file, new Date(1_000_000), new Date(1_000_000));
    const before = snapshotFolder(root);
    writeFileSync(file, '{"b":2}');
    assert.deepEqual(
      snapshotChanges(before, snapshotFolder(root)).map((c) => c.split(' (')[0]),
      ['changed summary-latest.json'],
    );
  });
});
