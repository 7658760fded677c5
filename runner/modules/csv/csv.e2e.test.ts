// k6/experimental/csv: Go's CSV rules on their own, and fixtures/csv.js logged line for line on real
// k6 and the runner.
import assert from 'node:assert/strict';
import { assertSameLogLines, logLines, RUNNER } from '../../testing/log-lines.js';
import { GoCsvReader } from './go-csv.js';

function readAll(text: string, comma = ','): (string[] | string)[] {
  const reader = new GoCsvReader(new TextEncoder().encode(text), comma.charCodeAt(0));
  const out: (string[] | string)[] = [];
  for (;;) {
    try {
      const record = reader.read();
      if (!record) return out;
      out.push(record);
    } catch (error) {
      out.push((error as Error).message);
    }
  }
}

describe('runner/modules k6/experimental/csv', () => {
  it('reads records with the rules and error texts of Go encoding/csv', () => {
    assert.deepEqual(readAll('a,b\n\n"x,""y""",z'), [
      ['a', 'b'],
      ['x,"y"', 'z'],
    ]);
    assert.deepEqual(readAll('a;b\r\n"1\r\n2";3\r\n', ';'), [
      ['a', 'b'],
      ['1\n2', '3'],
    ]);
    assert.deepEqual(readAll('a,b\n1\n2,3\n'), [
      ['a', 'b'],
      'record on line 2: wrong number of fields',
      ['2', '3'],
    ]);
    assert.deepEqual(readAll('a,b"\n'), ['parse error on line 1, column 4: bare " in non-quoted-field']);
    assert.deepEqual(readAll('"a\n\nb'), [
      'record on line 1; parse error on line 3, column 3: extraneous or missing " in quoted-field',
    ]);
  });

  it('csv.parse of a malformed file rejects with the reader error (k6 v1.3 panics there)', function () {
    this.timeout(60_000);
    assert.deepEqual(logLines(RUNNER, 'runner/modules/fixtures/csv-malformed.js'), [
      'level=info msg="rejected GoError: failed to read record; reason: record on line 2: wrong number of fields" source=console',
    ]);
  });

  it('fixtures/csv.js logs the same lines on real k6 and on the runner', function () {
    this.timeout(60_000);
    assertSameLogLines(this, 'runner/modules/fixtures/csv.js', 100);
  });
});
