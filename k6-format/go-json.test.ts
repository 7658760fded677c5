// The expected texts are what real k6 v1.3.0 wrote to `--out json` for the same values.
import assert from 'node:assert/strict';
import { compareGoStrings, goJsonNumber, goJsonString, goTagsJson } from './go-json.js';

describe('k6-format go-json: JSON text as k6 writes its --out json lines', () => {
  it('escapes strings as easyjson does: HTML characters, line separators, every control character', () => {
    assert.equal(goJsonString('plain text'), '"plain text"');
    assert.equal(goJsonString('a<&>'), '"a\\u003c\\u0026\\u003e"');
    assert.equal(
      goJsonString('is <one> & "quoted"\u2028'),
      '"is \\u003cone\\u003e \\u0026 \\"quoted\\"\\u2028"',
    );
    assert.equal(goJsonString('x\by\fz\u0001\u007f'), '"x\\u0008y\\u000cz\\u0001\u007f"');
    assert.equal(goJsonString('tab\tline\nret\r'), '"tab\\tline\\nret\\r"');
    // A backslash before b or f is a backslash, not an escape to rewrite.
    assert.equal(goJsonString('\\b\\f<'), '"\\\\b\\\\f\\u003c"');
    assert.equal(goJsonString('é ü 😀'), '"é ü 😀"');
    assert.equal(JSON.parse(goJsonString('a<\u2029&\u0000\\b')), 'a<\u2029&\u0000\\b');
  });

  it("sorts a tag set's keys in Go's order: by code point, upper case first", () => {
    assert.equal(
      goTagsJson({ zeta: 'z', alpha: 'a<&>', Upper: 'U', é: 'ü', group: '::g<1>' }),
      '{"Upper":"U","alpha":"a\\u003c\\u0026\\u003e","group":"::g\\u003c1\\u003e","zeta":"z","é":"ü"}',
    );
    assert.equal(goTagsJson({}), '{}');
    // U+FFFD (3 UTF-8 bytes, EF...) sorts before U+1F600 (4 bytes, F0...), though its UTF-16 unit is larger.
    assert.ok(compareGoStrings('\ufffd', '\u{1f600}') < 0);
    assert.ok(compareGoStrings('\u{1f600}', '\ufffd') > 0);
    assert.ok(compareGoStrings('ab', 'abc') < 0);
    assert.equal(compareGoStrings('same', 'same'), 0);
  });

  it("writes numbers as Go's FormatFloat(v, 'g', -1, 64)", () => {
    const k6Wrote: [number, string][] = [
      [1234567, '1.234567e+06'],
      [123456, '123456'],
      [0.00001, '1e-05'],
      [0.0001, '0.0001'],
      [1e21, '1e+21'],
      [1e20, '1e+20'],
      [12345678.9, '1.23456789e+07'],
      [-0.5, '-0.5'],
      [5e-324, '5e-324'],
      [2.102916, '2.102916'],
      [1, '1'],
      [0, '0'],
    ];
    assert.deepEqual(
      k6Wrote.map(([value]) => [value, goJsonNumber(value)]),
      k6Wrote,
    );
    assert.equal(goJsonNumber(-0), '-0');
    // Either side of the exponent's bounds (Go: an exponent below -4 or from 6 on).
    assert.deepEqual([999999, 1e6, -1e6, 999999.5, 0.0001, 0.00009, -0.00009].map(goJsonNumber), [
      '999999',
      '1e+06',
      '-1e+06',
      '999999.5',
      '0.0001',
      '9e-05',
      '-9e-05',
    ]);
  });
});
