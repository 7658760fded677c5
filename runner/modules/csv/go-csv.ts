// A CSV reader with the rules and error texts of Go's encoding/csv (k6/experimental/csv reads through
// it with its defaults): RFC 4180 quoting, "\r\n" line ends read as "\n", blank lines skipped, every
// record as long as the first, and ParseError's wording with 1-based line and byte columns. A general
// CSV library parses the same files but words and positions its errors its own way, which scripts
// logging k6's messages would see. It scans the decoded text (bytes are counted only for an error).

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

/** Go's 1-based byte column of `line[index]`. */
const column = (line: string, index: number) => Buffer.byteLength(line.slice(0, index)) + 1;

export class GoCsvReader {
  private readonly text: string;
  private readonly comma: string;
  private pos = 0;
  private lineNumber = 0;
  private fieldsPerRecord = 0;

  constructor(data: Uint8Array, comma: number) {
    this.text = new TextDecoder().decode(data);
    this.comma = String.fromCharCode(comma);
  }

  /** The next line with its "\n" ("\r\n" read as "\n", one added at the end of the text), or undefined. */
  private readLine(): string | undefined {
    const { text } = this;
    if (this.pos >= text.length) return undefined;
    const end = text.indexOf('\n', this.pos);
    let line = end < 0 ? `${text.slice(this.pos)}\n` : text.slice(this.pos, end + 1);
    this.pos = end < 0 ? text.length : end + 1;
    this.lineNumber++;
    if (line.endsWith('\r\n')) line = `${line.slice(0, -2)}\n`;
    return line;
  }

  /** The next record's fields; undefined at the end of the text; throws Go's ParseError texts. */
  read(): string[] | undefined {
    let line: string | undefined;
    do line = this.readLine();
    while (line === '\n'); // blank lines are skipped
    if (line === undefined) return undefined;
    const startLine = this.lineNumber;
    const fields: string[] = [];
    let at = 0;
    for (;;) {
      if (line[at] !== '"') {
        // A field without quotes runs to the next comma or the line's end, and holds no quote.
        let end = line.indexOf(this.comma, at);
        const comma = end >= 0;
        if (!comma) end = line.length - 1;
        const field = line.slice(at, end);
        const quote = field.indexOf('"');
        if (quote >= 0)
          throw parseError(startLine, this.lineNumber, column(line, at + quote), ERR_BARE_QUOTE);
        fields.push(field);
        if (!comma) break;
        at = end + 1;
        continue;
      }
      // A quoted field: `""` is a quote, and it may span lines.
      at++;
      let field = '';
      for (;;) {
        const quote = line.indexOf('"', at);
        if (quote < 0) {
          field += line.slice(at);
          const more = this.readLine();
          if (more === undefined)
            throw parseError(startLine, this.lineNumber, column(line, line.length), ERR_QUOTE);
          line = more;
          at = 0;
          continue;
        }
        field += line.slice(at, quote);
        at = quote + 1;
        const next = line[at];
        if (next === '"') {
          field += '"';
          at++;
        } else if (next === this.comma) {
          at++;
          fields.push(field);
          break;
        } else if (at === line.length - 1) {
          fields.push(field);
          return this.checked(fields, startLine);
        } else {
          throw parseError(startLine, this.lineNumber, column(line, quote), ERR_QUOTE);
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
