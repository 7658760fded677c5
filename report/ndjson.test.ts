import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { metricLine, parseNdjsonLine, pointLine } from '@loadlab/k6-format/ndjson';
import { K6_SAMPLES } from '../devkit/k6-reference.js';
import { RunAggregator } from './aggregate.js';
import { makeTimeParser, readNdjson } from './ndjson.js';

describe('NDJSON reader', () => {
  it('reads every line real k6 wrote, and the one writer writes it back byte for byte', () => {
    const lines = readFileSync(`${K6_SAMPLES}/points-head.ndjson`, 'utf8').split('\n').filter(Boolean);
    assert.ok(lines.some((l) => l.includes('"Metric"')) && lines.some((l) => l.includes('"Point"')));
    for (const text of lines) {
      const line = parseNdjsonLine(text);
      assert.ok(line, text);
      const again =
        line.type === 'Metric'
          ? metricLine(
              line.data.name,
              line.data.type,
              line.data.contains,
              line.data.thresholds,
              line.data.submetrics,
            )
          : pointLine(line.metric, line.data.time, line.data.value, line.data.tags ?? {});
      assert.equal(again, `${text}\n`);
    }
  });

  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'loadlab-ndjson-'));
  });
  after(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('parses k6 times with nanoseconds and any offset', () => {
    const parse = makeTimeParser();
    assert.equal(parse('2026-11-22T12:54:27.075955849Z'), Date.parse('2026-11-22T12:54:27Z') + 75.955849);
    assert.equal(parse('2026-11-22T12:54:27.5+01:00'), Date.parse('2026-11-22T11:54:27.500Z'));
    assert.equal(parse('2026-11-22T12:54:28Z'), Date.parse('2026-11-22T12:54:28Z'));
  });

  it('counts malformed lines instead of failing, and skips unneeded metrics unparsed', async () => {
    const path = join(dir, 'mixed.ndjson');
    const point = (metric: string, value: number) =>
      JSON.stringify({
        metric,
        type: 'Point',
        data: { time: '2026-11-22T12:00:00.1Z', value, tags: { name: 'GET /x', status: '200' } },
      });
    await writeFile(
      path,
      [
        point('http_reqs', 1),
        '{"truncated',
        point('http_req_blocked', 3),
        '',
        point('http_req_duration', 7),
      ].join('\n'),
    );
    const agg = new RunAggregator();
    const stats = await readNdjson(path, agg);
    assert.deepEqual(stats, { lines: 5, points: 2, skipped: 1, badLines: 1 });
    assert.equal(agg.result().endpoints[0]?.max, 7);
  });

  it('rejects a corrupt gzip with a one-line reason', async () => {
    const path = join(dir, 'bad.ndjson.gz');
    await writeFile(path, 'not gzip');
    await assert.rejects(
      readNdjson(path, new RunAggregator()),
      /cannot read .*bad\.ndjson\.gz: incorrect header check/,
    );
  });
});
