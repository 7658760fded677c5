import assert from 'node:assert/strict';
import { metricLine, ndjsonPoints, parseNdjson, pointLine } from './ndjson.js';

const TIME = '2026-11-27T15:00:00.123456789Z';
const TEXT = [
  metricLine('http_reqs', 'counter', 'default'),
  pointLine('http_reqs', TIME, 1, { status: '200' }),
  '\n',
  metricLine('vus', 'gauge', 'default'),
  pointLine('vus', TIME, 2, {}),
  pointLine('http_reqs', TIME, 1, { status: '500' }),
].join('');

describe('k6-format NDJSON: reading a whole --out json text', () => {
  it('gives every Metric and Point line in order, skipping blank lines', () => {
    const lines = parseNdjson(TEXT);
    assert.deepEqual(
      lines.map((l) => `${l.type} ${l.metric}`),
      ['Metric http_reqs', 'Point http_reqs', 'Metric vus', 'Point vus', 'Point http_reqs'],
    );
  });

  it('refuses a line that is not one, naming it; a last line cut short only when asked to allow it', () => {
    assert.throws(
      () => parseNdjson(`${TEXT}{"not":"k6"}\n`),
      /line 7 is not a k6 NDJSON line: \{"not":"k6"\}/,
    );
    const killed = `${TEXT}{"metric":"http_re`;
    assert.throws(() => parseNdjson(killed), /line 7 is not a k6 NDJSON line/);
    assert.equal(parseNdjson(killed, { cutShort: true }).length, 5);
    assert.throws(() => parseNdjson(`{"x":1}\n${TEXT}`, { cutShort: true }), /line 1 is not/);
  });

  it('picks the Point lines of one metric, or of those a test chooses', () => {
    assert.deepEqual(
      ndjsonPoints(TEXT, 'http_reqs').map((p) => p.data.tags?.status),
      ['200', '500'],
    );
    assert.deepEqual(
      ndjsonPoints(TEXT, (metric) => metric !== 'http_reqs').map((p) => p.data.value),
      [2],
    );
    assert.equal(ndjsonPoints(TEXT).length, 3);
  });
});
