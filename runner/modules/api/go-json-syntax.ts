// Go's encoding/json scanner, for its words about text that is not JSON: k6 decodes with Go's
// json.Unmarshal, and a script sees Go's message ("invalid character '<' looking for beginning of
// value") and where it stopped (SyntaxError.Offset: the bytes read, the bad one included).

/** Where a value is inside its containers: what may come after it. */
const enum Within {
  ObjectKey,
  ObjectValue,
  ArrayValue,
}

/** Go's scanner nests values no deeper than this. */
const MAX_DEPTH = 10_000;

const isSpace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d;
const isDigit = (c: number) => c >= 0x30 && c <= 0x39;
const isHex = (c: number) => isDigit(c) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);

const NAMED_ESCAPES: Record<number, string> = {
  0x07: '\\a',
  0x08: '\\b',
  0x0c: '\\f',
  0x0a: '\\n',
  0x0d: '\\r',
  0x09: '\\t',
  0x0b: '\\v',
};

/** Go's quoteChar: the byte as a rune, quoted as strconv.Quote does, in single quotes. */
function quoteChar(c: number): string {
  if (c === 0x27) return "'\\''";
  if (c === 0x22) return "'\"'";
  if (c === 0x5c) return "'\\\\'";
  if (NAMED_ESCAPES[c]) return `'${NAMED_ESCAPES[c]}'`;
  if (c < 0x20 || c === 0x7f) return `'\\x${c.toString(16).padStart(2, '0')}'`;
  // strconv.IsPrint: U+0080-U+009F, the no-break space and the soft hyphen are not printable.
  if ((c >= 0x80 && c <= 0x9f) || c === 0xa0 || c === 0xad) return `'\\u${c.toString(16).padStart(4, '0')}'`;
  return `'${String.fromCharCode(c)}'`;
}

/** A step of the scanner: the next state, or the error's context. */
type Step = (c: number) => Step | string;

/**
 * Go's json.Valid as an error: undefined for JSON, else Go's message and its offset in bytes.
 * `bytes` is the body as received (UTF-8).
 */
export function goJsonSyntaxError(bytes: Uint8Array): { message: string; offset: number } | undefined {
  const stack: Within[] = [];
  // Set once the top-level value is whole (read through a function: the steps set it).
  let endTop = false;
  const ended = () => endTop;

  const literal = (rest: string, name: string, i = 0): Step => {
    const expect = rest.charCodeAt(i);
    return (c) => {
      if (c !== expect) return `in literal ${name} (expecting '${rest[i]}')`;
      return i + 1 === rest.length ? endValue : literal(rest, name, i + 1);
    };
  };
  const push = (within: Within, next: Step): Step | string => {
    if (stack.length >= MAX_DEPTH) return 'exceeded max depth';
    stack.push(within);
    return next;
  };
  const pop = (): Step => {
    stack.pop();
    if (stack.length === 0) {
      endTop = true;
      return endTop_;
    }
    return endValue;
  };
  const beginValue: Step = (c) => {
    if (isSpace(c)) return beginValue;
    switch (c) {
      case 0x7b: // {
        return push(Within.ObjectKey, beginStringOrEmpty);
      case 0x5b: // [
        return push(Within.ArrayValue, beginValueOrEmpty);
      case 0x22:
        return inString;
      case 0x2d: // -
        return neg;
      case 0x30:
        return zero;
      case 0x74:
        return literal('rue', 'true');
      case 0x66:
        return literal('alse', 'false');
      case 0x6e:
        return literal('ull', 'null');
    }
    if (c >= 0x31 && c <= 0x39) return digits;
    return 'looking for beginning of value';
  };
  const beginValueOrEmpty: Step = (c) => {
    if (isSpace(c)) return beginValueOrEmpty;
    if (c === 0x5d) return endValue(c);
    return beginValue(c);
  };
  const beginStringOrEmpty: Step = (c) => {
    if (isSpace(c)) return beginStringOrEmpty;
    if (c === 0x7d) {
      stack[stack.length - 1] = Within.ObjectValue;
      return endValue(c);
    }
    return beginString(c);
  };
  const beginString: Step = (c) => {
    if (isSpace(c)) return beginString;
    if (c === 0x22) return inString;
    return 'looking for beginning of object key string';
  };
  const endValue: Step = (c) => {
    if (stack.length === 0) {
      endTop = true;
      return endTop_(c);
    }
    if (isSpace(c)) return endValue;
    switch (stack[stack.length - 1]) {
      case Within.ObjectKey:
        if (c === 0x3a) {
          stack[stack.length - 1] = Within.ObjectValue;
          return beginValue;
        }
        return 'after object key';
      case Within.ObjectValue:
        if (c === 0x2c) {
          stack[stack.length - 1] = Within.ObjectKey;
          return beginString;
        }
        if (c === 0x7d) return pop();
        return 'after object key:value pair';
      default:
        if (c === 0x2c) return beginValue;
        if (c === 0x5d) return pop();
        return 'after array element';
    }
  };
  const endTop_: Step = (c) => (isSpace(c) ? endTop_ : 'after top-level value');
  const inString: Step = (c) => {
    if (c === 0x22) return endValue;
    if (c === 0x5c) return inStringEscape;
    if (c < 0x20) return 'in string literal';
    return inString;
  };
  const inStringEscape: Step = (c) => {
    if ('bfnrt\\/"'.includes(String.fromCharCode(c))) return inString;
    if (c === 0x75) return hex(4);
    return 'in string escape code';
  };
  const hex =
    (left: number): Step =>
    (c) => {
      if (!isHex(c)) return 'in \\u hexadecimal character escape';
      return left === 1 ? inString : hex(left - 1);
    };
  const neg: Step = (c) => {
    if (c === 0x30) return zero;
    if (c >= 0x31 && c <= 0x39) return digits;
    return 'in numeric literal';
  };
  const digits: Step = (c) => (isDigit(c) ? digits : zero(c));
  const zero: Step = (c) => {
    if (c === 0x2e) return dot;
    if (c === 0x65 || c === 0x45) return exponent;
    return endValue(c);
  };
  const dot: Step = (c) => (isDigit(c) ? fraction : 'after decimal point in numeric literal');
  const fraction: Step = (c) => {
    if (isDigit(c)) return fraction;
    if (c === 0x65 || c === 0x45) return exponent;
    return endValue(c);
  };
  const exponent: Step = (c) => (c === 0x2b || c === 0x2d ? exponentSign : exponentSign(c));
  const exponentSign: Step = (c) => (isDigit(c) ? exponentDigits : 'in exponent of numeric literal');
  const exponentDigits: Step = (c) => (isDigit(c) ? exponentDigits : endValue(c));

  let step: Step = beginValue;
  for (let i = 0; i < bytes.length; i++) {
    const c = bytes[i]!;
    const next = step(c);
    if (typeof next === 'string') {
      const message = next === 'exceeded max depth' ? next : `invalid character ${quoteChar(c)} ${next}`;
      return { message, offset: i + 1 };
    }
    step = next;
  }
  // The end of the input is read as a space (it ends a number); a value still open is cut short.
  if (ended()) return undefined;
  const last = step(0x20);
  if (ended()) return undefined;
  const message = typeof last === 'string' ? `invalid character ' ' ${last}` : 'unexpected end of JSON input';
  return { message, offset: bytes.length };
}

/**
 * k6's place of a JSON error (checkErrorInJSON): the line, and the character within it counted in
 * runes from 1, of the byte at `offset`; past the end, the last character's.
 */
export function k6JsonErrorPlace(text: string, offset: number): { line: number; character: number } {
  let line = 1;
  let character = 0;
  let byteIndex = 0;
  for (const rune of text) {
    if (rune === '\n') {
      line++;
      character = 0;
    }
    character++;
    if (byteIndex === offset) break;
    const cp = rune.codePointAt(0)!;
    byteIndex += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return { line, character };
}
