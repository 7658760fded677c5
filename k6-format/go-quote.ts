// Go's %q (strconv.Quote), which logrus uses for a log value and k6 for the texts it quotes in
// its messages.

/**
 * Go's printable runes (unicode.IsPrint): letters, marks, numbers, punctuation, symbols, and ' '.
 * Made on first use: V8 builds its Unicode classes when the literal is evaluated, about 0.6 ms that
 * every VU isolate paid at start, for a text that is ASCII nearly always.
 */
let goPrintable: RegExp | undefined;

function isGoPrintable(ch: string, code: number): boolean {
  if (code < 0x80) return code >= 0x20 && code < 0x7f;
  goPrintable ??= /^[\p{L}\p{M}\p{N}\p{P}\p{S} ]$/u;
  return goPrintable.test(ch);
}
const GO_ESCAPES: Record<string, string> = {
  '\x07': '\\a',
  '\b': '\\b',
  '\f': '\\f',
  '\n': '\\n',
  '\r': '\\r',
  '\t': '\\t',
  '\v': '\\v',
  '"': '\\"',
  '\\': '\\\\',
};

/** A string as Go's %q (strconv.Quote) writes it, which is how logrus quotes: \x, \u, \U escapes. */
export function goQuote(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (GO_ESCAPES[ch]) out += GO_ESCAPES[ch];
    else if (isGoPrintable(ch, code)) out += ch;
    else if (code < 0x20 || code === 0x7f) out += `\\x${code.toString(16).padStart(2, '0')}`;
    else if (code < 0x10000) out += `\\u${code.toString(16).padStart(4, '0')}`;
    else out += `\\U${code.toString(16).padStart(8, '0')}`;
  }
  return `${out}"`;
}
