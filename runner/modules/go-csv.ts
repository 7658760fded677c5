// A CSV reader with the rules and error texts of Go's encoding/csv (k6/experimental/csv reads through
// it with its defaults): RFC 4180 quoting, "\r\n" line ends read as "\n", blank lines skipped, every
// record as long as the first, and ParseError's wording with 1-based line and byte columns. A general
// CSV library parses the same files but words and positions its errors its own way, which scripts
// logging k6's messages would see.

const QUOTE = 0x22;
const NEWLINE = 0x0a;
const CR = 0x0d;

const ERR_BARE_QUOTE = 'bare " in non-quoted-field';
const ERR_QUOTE = 'extraneous or missing " in quoted-field';

export class GoCsvError extends Error {}

function parseError(startLine: number, line: number, column: number, what: string): GoCsvError {
  return new GoCsvError(
    startLine === line
      ? `parse error on line ${line}, column ${column}: ${what}`
      : `record on line ${startLine}; parse error on line ${line}, column ${column}: ${what}`,
  );
}

export class GoCsvReader {
  private pos = 0;
  private lineNumber = 0;
  private fieldsPerRecord = 0;
  private readonly decoder = new TextDecoder();

  constructor(
    private readonly data: Uint8Array,
    private readonly comma: number,
  ) {}

  /** The next line with its "\n" ("\r\n" read as "\n", one added at the end of the data), or undefined. */
  private readLine(): Uint8Array | undefined {
    if (this.pos >= this.data.byteLength) return undefined;
    const end = this.data.indexOf(NEWLINE, this.pos);
    const stop = end < 0 ? this.data.byteLength : end + 1;
    let line = this.data.subarray(this.pos, stop);
    this.pos = stop;
    this.lineNumber++;
    if (end < 0) {
      const withNewline = new Uint8Array(line.byteLength + 1);
      withNewline.set(line);
      withNewline[line.byteLength] = NEWLINE;
      line = withNewline;
    }
    const n = line.byteLength;
    if (n >= 2 && line[n - 2] === CR) {
      const fixed = new Uint8Array(n - 1);
      fixed.set(line.subarray(0, n - 2));
      fixed[n - 2] = NEWLINE;
      line = fixed;
    }
    return line;
  }

  /** The next record's fields; undefined at the end of the data; throws Go's ParseError texts. */
  read(): string[] | undefined {
    let line: Uint8Array | undefined;
    do line = this.readLine();
    while (line && line.byteLength === 1); // blank lines are skipped
    if (!line) return undefined;
    const startLine = this.lineNumber;
    const fields: string[] = [];
    let col = 1;
    let at = 0;
    const text = (bytes: number[] | Uint8Array) => this.decoder.decode(Uint8Array.from(bytes));
    for (;;) {
      if (line[at] !== QUOTE) {
        // A field without quotes runs to the next comma or the line's end, and holds no quote.
        let end = line.indexOf(this.comma, at);
        const comma = end >= 0;
        if (!comma) end = line.byteLength - 1;
        const quote = line.subarray(at, end).indexOf(QUOTE);
        if (quote >= 0) throw parseError(startLine, this.lineNumber, col + quote, ERR_BARE_QUOTE);
        fields.push(text(line.subarray(at, end)));
        if (!comma) break;
        col += end - at + 1;
        at = end + 1;
        continue;
      }
      // A quoted field: `""` is a quote, and it may span lines.
      at++;
      col++;
      const field: number[] = [];
      let closed = false;
      while (!closed) {
        const quote = line.indexOf(QUOTE, at);
        if (quote >= 0) {
          field.push(...line.subarray(at, quote));
          col += quote - at + 1;
          at = quote + 1;
          const next = line[at];
          if (next === QUOTE) {
            field.push(QUOTE);
            at++;
            col++;
          } else if (next === this.comma) {
            at++;
            col++;
            fields.push(text(field));
            closed = true;
          } else if (at === line.byteLength - 1) {
            fields.push(text(field));
            return this.checked(fields, startLine);
          } else {
            throw parseError(startLine, this.lineNumber, col - 1, ERR_QUOTE);
          }
        } else {
          field.push(...line.subarray(at));
          col += line.byteLength - at;
          const more = this.readLine();
          if (!more) throw parseError(startLine, this.lineNumber, col, ERR_QUOTE);
          line = more;
          at = 0;
          col = 1;
        }
      }
    }
    return this.checked(fields, startLine);
  }

  private checked(fields: string[], startLine: number): string[] {
    if (this.fieldsPerRecord === 0) this.fieldsPerRecord = fields.length;
    else if (fields.length !== this.fieldsPerRecord) {
      throw new GoCsvError(`record on line ${startLine}: wrong number of fields`);
    }
    return fields;
  }
}
