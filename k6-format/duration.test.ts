import assert from 'node:assert/strict';
import {
  DurationError,
  formatDuration,
  goDurationError,
  measuredMs,
  parseDuration,
  roundDuration,
} from './duration.js';

describe('k6-format durations', () => {
  it("formats as Go's Duration.String, which k6 prints everywhere", () => {
    const cases: [number, string][] = [
      [0, '0s'],
      [0.5, '500µs'],
      [500, '500ms'],
      [1500, '1.5s'],
      [90_000, '1m30s'],
      [3_600_000, '1h0m0s'],
      [-1500, '-1.5s'],
    ];
    for (const [ms, text] of cases) assert.equal(formatDuration(ms), text, `${ms} ms`);
  });

  it("rounds as Go's Duration.Round: to the nearest multiple, halfway away from zero", () => {
    const cases: [number, number, number][] = [
      [2250, 100, 2300],
      [2349, 100, 2300],
      [2350, 100, 2400],
      [60_050, 100, 60_100],
      [49, 100, 0],
      [50, 100, 100],
      [-2250, 100, -2300],
      [-2249, 100, -2200],
      [0.0004, 0.001, 0], // in whole nanoseconds: 400 ns to the microsecond
      [1234, 0, 1234], // Go: a multiple of 0 or less leaves it as it is
    ];
    for (const [ms, multipleMs, rounded] of cases)
      assert.equal(roundDuration(ms, multipleMs), rounded, `${ms} ms to ${multipleMs} ms`);
  });

  it("words a refused duration as Go's time.ParseDuration does", () => {
    assert.equal(goDurationError('1m30s'), undefined);
    assert.equal(goDurationError('0'), undefined);
    assert.equal(goDurationError('5'), 'time: missing unit in duration "5"');
    assert.equal(goDurationError('5x'), 'time: unknown unit "x" in duration "5x"');
    assert.equal(goDurationError('soon'), 'time: invalid duration "soon"');
  });

  it("parses Go's units plus k6's days, refusing with Go's words (the part after the days)", () => {
    assert.equal(parseDuration('1m30s'), 90_000);
    assert.equal(parseDuration('1d2h'), 93_600_000);
    assert.throws(() => parseDuration('1d', { days: false }), DurationError);
    assert.throws(() => parseDuration('1d5x'), { message: 'time: unknown unit "x" in duration "5x"' });
    assert.throws(() => parseDuration('5x'), { message: 'time: unknown unit "x" in duration "5x"' });
  });

  it("reads every number Go's time.ParseDuration reads: no digit before or after the point, a sign", () => {
    const cases: [string, number][] = [
      ['.5s', 500],
      ['1.s', 1000],
      ['+1s', 1000],
      ['-1.5m', -90_000],
      ['-0s', 0],
      ['1h.5m', 3_630_000],
      ['500000\u03bcs', 500],
      ['500000\u00b5s', 500],
      ['1.5us', 0.0015],
    ];
    for (const [text, ms] of cases) assert.equal(parseDuration(text), ms, text);
  });

  it("refuses what Go refuses in Go's words, quoting as the time package quotes", () => {
    const cases: [string, string][] = [
      ['.s', 'time: invalid duration ".s"'],
      ['1s.', 'time: invalid duration "1s."'],
      ['1.5.5s', 'time: missing unit in duration "1.5.5s"'],
      ['-', 'time: invalid duration "-"'],
      ['1\u00b5', 'time: unknown unit "\\xc2\\xb5" in duration "1\\xc2\\xb5"'],
      ['300000000h', 'time: invalid duration "300000000h"'],
    ];
    for (const [text, message] of cases) {
      assert.equal(goDurationError(text), message, text);
      assert.throws(() => parseDuration(text, { days: false }), { message }, text);
    }
  });

  it("reads k6's days as types.ParseExtendedDuration does: whole days, then Go's duration", () => {
    assert.equal(parseDuration('0d.5s'), 500);
    assert.equal(parseDuration('-1d2h'), -93_600_000);
    assert.equal(parseDuration('2d'), 172_800_000);
    const refused: [string, string][] = [
      ['1.5d', 'strconv.ParseInt: parsing "1.5": invalid syntax'],
      ['d5s', 'strconv.ParseInt: parsing "": invalid syntax'],
      ['1d-2h', "invalid time format '-2h'"],
      ['1dx', 'time: invalid duration "x"'],
    ];
    for (const [text, message] of refused) assert.throws(() => parseDuration(text), { message }, text);
  });

  it('reports a measured span in whole nanoseconds, as Go does', () => {
    assert.equal(measuredMs(0.7835789999999747), 0.783579);
    assert.equal(measuredMs(2.027183999999977), 2.027184);
    assert.equal(measuredMs(1000.0000004), 1000);
    assert.equal(measuredMs(0), 0);
  });
});
