import assert from 'node:assert/strict';
import { goQuote } from './go-quote.js';

describe('k6-format/go-quote: Go’s %q', () => {
  it('escapes as strconv.Quote does: named escapes, \\x below space and for DEL, quotes and backslashes', () => {
    assert.equal(goQuote('a "b" \\ c'), '"a \\"b\\" \\\\ c"');
    assert.equal(goQuote('\x07\b\f\n\r\t\v'), '"\\a\\b\\f\\n\\r\\t\\v"');
    assert.equal(goQuote('\x00\x1b\x7f'), '"\\x00\\x1b\\x7f"');
  });

  it('every ASCII character is quoted as Go’s unicode.IsPrint classes it (letters, marks, numbers, punctuation, symbols, space)', () => {
    const printable = /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
    for (let code = 0; code < 0x80; code++) {
      const ch = String.fromCharCode(code);
      const quoted = goQuote(ch).slice(1, -1);
      if (ch === '"' || ch === '\\') assert.equal(quoted, `\\${ch}`);
      else if (printable.test(ch)) assert.equal(quoted, ch, `U+${code.toString(16)}`);
      else assert.match(quoted, /^\\/, `U+${code.toString(16)} is escaped`);
    }
  });

  it('keeps printable runes beyond ASCII and escapes the others as \\u or \\U', () => {
    assert.equal(goQuote('é日本👍'), '"é日本👍"');
    assert.equal(goQuote('a\u200bb\u00a0'), '"a\\u200bb\\u00a0"');
    assert.equal(goQuote('\u{e0001}'), '"\\U000e0001"');
  });
});
