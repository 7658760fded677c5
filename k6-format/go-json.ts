// JSON text as k6 writes its `--out json` lines, byte for byte. k6 encodes them with easyjson
// (internal/output/json/wrapper.go), which differs from JSON.stringify in three ways: strings escape
// `<`, `>` and `&` as \u003c, \u003e, \u0026, U+2028 and U+2029 as \u2028, \u2029, and every control
// character other than \t, \r, \n as \u00XX; a tag set is written with its keys in Go's string order;
// a number is Go's strconv.FormatFloat(v, 'g', -1, 64), so 1234567 is 1.234567e+06.

/** In JSON.stringify's output: an escape (pairs of characters after a backslash) or an HTML character. */
const STRINGIFIED = /\\(.)|[<>&\u2028\u2029]/g;
const GO_FORMS: Record<string, string> = {
  '<': '\\u003c',
  '>': '\\u003e',
  '&': '\\u0026',
  '\u2028': '\\u2028',
  '\u2029': '\\u2029',
  b: '\\u0008',
  f: '\\u000c',
};

/**
 * Whether a string holds a character easyjson escapes differently from JSON.stringify, or that
 * JSON.stringify escapes at all (a loop: a sample's dozen tag strings are checked on every line).
 */
function needsEscape(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x22 || c === 0x5c || c === 0x3c || c === 0x3e || c === 0x26) return true;
    if (c >= 0x2028 && (c <= 0x2029 || (c >= 0xd800 && c <= 0xdfff))) return true;
  }
  return false;
}

/** A string as easyjson writes it (with HTML escaping, its default). */
export function goJsonString(text: string): string {
  if (!needsEscape(text)) return `"${text}"`;
  return JSON.stringify(text).replace(STRINGIFIED, (match: string, escaped: string | undefined) =>
    escaped === undefined ? GO_FORMS[match]! : (GO_FORMS[escaped] ?? match),
  );
}

/** Go's order of two strings: by their UTF-8 bytes, which is by code point (not by UTF-16 unit). */
export function compareGoStrings(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // A surrogate (a code point past U+FFFF) sorts after U+E000-U+FFFF, though its unit is smaller.
    const xs = x >= 0xd800 && x <= 0xdfff;
    const ys = y >= 0xd800 && y <= 0xdfff;
    if (xs !== ys && (xs ? y : x) >= 0xe000) return xs ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

function hasSurrogate(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) return true;
  }
  return false;
}

/**
 * A tag set as k6 writes it: keys in Go's order, keys and values as easyjson writes strings. A Go
 * map (sample metadata) has no key order: `sorted` false keeps the object's.
 */
export function goTagsJson(tags: Readonly<Record<string, string>>, sorted = true): string {
  const keys = Object.keys(tags);
  // UTF-16 order is Go's but between a surrogate and U+E000-U+FFFF: the slower comparison only then.
  if (sorted && keys.length > 1) keys.sort(keys.some(hasSurrogate) ? compareGoStrings : undefined);
  let text = '{';
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    text += `${i ? ',' : ''}${goJsonString(key)}:${goJsonString(tags[key]!)}`;
  }
  return `${text}}`;
}

/** Go's strconv.FormatFloat(value, 'g', -1, 64): the shortest digits, an exponent from 1e+06 and below 1e-04. */
export function goJsonNumber(value: number): string {
  if (!Number.isFinite(value)) return JSON.stringify(value); // k6 refuses such samples; never written
  if (value === 0) return Object.is(value, -0) ? '-0' : '0';
  // Between 1e-4 and 1e6 both write the shortest digits without an exponent.
  const size = Math.abs(value);
  if (size >= 1e-4 && size < 1e6) return String(value);
  // Outside it, the shortest digits' exponent is below -4 or from 6 on: Go's exponent form.
  const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
  const exp = Number(exponent);
  return `${mantissa}e${exp < 0 ? '-' : '+'}${String(Math.abs(exp)).padStart(2, '0')}`;
}
