// `k6/experimental/csv`: parse(file, options) resolving to a SharedArray of the records, and
// `new Parser(file, options)` whose next() resolves to {done, value}. Both read a k6/experimental/fs
// File from its current offset (so a File parsed once is at its end, as in k6) with Go's CSV rules
// (go-csv.ts), and take k6's options: delimiter, skipFirstLine, fromLine, toLine (inclusive, 0-based
// record numbers), asObjects (the first record names the columns).
import { sharedArray } from '../data/data.js';
import { fileSource } from '../fs/fs.js';
import { goError, GoRejection } from '../api/go-error.js';
import { GoCsvReader } from './go-csv.js';
import type { VuRuntime } from '../api/runtime.js';

interface CsvOptions {
  delimiter: number;
  skipFirstLine: boolean;
  fromLine: number | undefined;
  toLine: number | undefined;
  asObjects: boolean;
}

/** sobek's ToInteger: NaN is 0, fractions truncated. */
function toInteger(value: unknown): number {
  return Math.trunc(Number(value)) || 0;
}

/** The options object as k6 reads it: a property present (even undefined) is read. */
function readOptions(value: unknown): CsvOptions {
  const options: CsvOptions = {
    delimiter: 0x2c,
    skipFirstLine: false,
    fromLine: undefined,
    toLine: undefined,
    asObjects: false,
  };
  if (value === undefined || value === null) return options;
  const obj = Object(value) as Record<string, unknown>;
  if ('delimiter' in obj) {
    const delimiter = Buffer.from(String(obj.delimiter), 'utf8');
    if (delimiter.byteLength !== 1) throw new Error('delimiter must be a single character');
    options.delimiter = delimiter[0]!;
  }
  if ('skipFirstLine' in obj) options.skipFirstLine = Boolean(obj.skipFirstLine);
  if ('fromLine' in obj) options.fromLine = toInteger(obj.fromLine);
  if ('toLine' in obj) options.toLine = toInteger(obj.toLine);
  if ('asObjects' in obj) options.asObjects = Boolean(obj.asObjects);
  if (options.fromLine !== undefined && options.toLine !== undefined && options.fromLine >= options.toLine) {
    throw new Error('fromLine must be less than or equal to toLine');
  }
  return options;
}

function validate(o: CsvOptions): void {
  if (o.asObjects && o.skipFirstLine) {
    throw new Error("the 'header' option cannot be enabled when 'skipFirstLine' is true");
  }
  if (o.asObjects && o.fromLine !== undefined && o.fromLine > 0) {
    throw new Error("the 'header' option cannot be enabled when 'fromLine' is set to a value greater than 0");
  }
  if (o.fromLine !== undefined && o.fromLine < 0) {
    throw new Error(`the 'fromLine' option must be greater than or equal to 0; got ${o.fromLine}`);
  }
  if (o.toLine !== undefined && o.toLine < 0) {
    throw new Error(`the 'toLine' option must be greater than or equal to 0; got ${o.toLine}`);
  }
  if (o.fromLine !== undefined && o.toLine !== undefined && o.fromLine >= o.toLine) {
    throw new Error(
      `the 'fromLine' option must be less than the 'toLine' option; got 'fromLine': ${o.fromLine}, 'toLine': ${o.toLine}`,
    );
  }
}

/** The Go type sobek reports (`%T`) for a value that is not a File. */
function sobekType(value: unknown): string {
  switch (typeof value) {
    case 'string':
      return [...value].every((c) => c.charCodeAt(0) < 0x80) ? 'sobek.asciiString' : 'sobek.unicodeString';
    case 'number':
      return Number.isSafeInteger(value) && !Object.is(value, -0) ? 'sobek.valueInt' : 'sobek.valueFloat';
    case 'boolean':
      return 'sobek.valueBool';
    case 'bigint':
      return 'sobek.valueBigInt';
    case 'symbol':
      return '*sobek.Symbol';
    default:
      return '*sobek.Object';
  }
}

/** k6's Go types that a file argument cannot be exported to a File from. */
function notAFile(value: unknown): boolean {
  return value !== null && value !== undefined && typeof value !== 'object' && typeof value !== 'function';
}

/** Records as k6's Reader gives them: header, skipped and out-of-range lines handled. */
class RecordReader {
  private readonly csv: GoCsvReader;
  private line = 0;
  private columns: string[] | undefined;

  /** The header's names when rows are objects (asObjects). */
  get columnNames(): readonly string[] | undefined {
    return this.columns;
  }

  constructor(
    file: unknown,
    private readonly options: CsvOptions,
  ) {
    const source = fileSource(file);
    if (!source) throw new Error('the reader cannot be nil');
    validate(options);
    // The rest of the file from its offset, which the reader consumes.
    const data = source.data.subarray(source.offset);
    source.offset = source.data.byteLength;
    this.csv = new GoCsvReader(data, options.delimiter);
    if (options.asObjects) {
      this.columns = this.skip('failed to read the first line; reason: ');
      this.line++;
    }
    if (options.skipFirstLine && !options.fromLine) {
      this.skip('failed to skip the first line; reason: ');
      this.line++;
    }
    const from = options.fromLine ?? 0;
    while (this.line < from) {
      this.skip(`failed to skip lines until line ${from}; reason: `);
      this.line++;
    }
  }

  private skip(context: string): string[] {
    let record: string[] | undefined;
    try {
      record = this.csv.read();
    } catch (error) {
      throw new Error(context + (error as Error).message, { cause: error });
    }
    if (!record) throw new Error(`${context}EOF`);
    return record;
  }

  /** The next record (an array, or an object keyed by the header); undefined at the end. */
  read(): string[] | Record<string, string> | undefined {
    const to = this.options.toLine;
    if (to !== undefined && to > 0 && this.line > to) return undefined;
    const record = this.csv.read();
    if (!record) return undefined;
    this.line++;
    if (!this.columns) return record;
    if (record.length !== this.columns.length) {
      throw new Error(
        `record length (${record.length}) doesn't match header length (${this.columns.length})`,
      );
    }
    const row: Record<string, string> = {};
    this.columns.forEach((name, i) => (row[name] = record[i]!));
    return row;
  }
}

function parse(file: unknown, options: unknown): Promise<unknown> {
  if (notAFile(file)) {
    return Promise.reject(
      new GoRejection(`first argument expected to be a fs.File instance, got ${sobekType(file)} instead`),
    );
  }
  let reader: RecordReader;
  try {
    let read: CsvOptions;
    try {
      read = readOptions(options);
    } catch (error) {
      throw new Error(
        `failed to interpret the provided Parser options; reason: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    try {
      reader = new RecordReader(file, read);
    } catch (error) {
      throw new Error(`failed to create a new parser; reason: ${(error as Error).message}`, { cause: error });
    }
  } catch (error) {
    return Promise.reject(new GoRejection((error as Error).message));
  }
  const items: string[] = [];
  try {
    // As Go's json.Marshal writes a map: keys sorted (a replacer array fixes the order once).
    const keys = reader.columnNames && [...new Set(reader.columnNames)].sort();
    for (let record = reader.read(); record; record = reader.read()) items.push(JSON.stringify(record, keys));
  } catch (error) {
    // k6 v1.3 panics here (the whole run ends with a Go stack trace); a rejection is the kinder equivalent.
    return Promise.reject(goError(`failed to read record; reason: ${(error as Error).message}`));
  }
  return Promise.resolve(sharedArray(items));
}

export function createCsvModule(rt: VuRuntime): Record<string, unknown> {
  class Parser {
    constructor(file?: unknown, options?: unknown) {
      if (rt.phase !== 'init') throw goError('csv Parser constructor must be called in the init context');
      if (file === undefined || file === null) {
        throw goError('csv Parser constructor takes at least one non-nil source argument');
      }
      if (notAFile(file)) {
        throw goError(`first argument expected to be a fs.File instance, got ${sobekType(file)} instead`);
      }
      let read: CsvOptions;
      try {
        read = readOptions(options);
      } catch (error) {
        throw goError(
          `encountered an error while interpreting Parser options; reason: ${(error as Error).message}`,
        );
      }
      let reader: RecordReader;
      try {
        reader = new RecordReader(file, read);
      } catch (error) {
        throw goError(`failed to create a new parser; reason: ${(error as Error).message}`);
      }
      // An own enumerable method, as k6's Parser shows it (Object.keys lists `next`).
      const parser = {
        next: () => {
          try {
            const value = reader.read();
            return Promise.resolve(value ? { done: false, value } : { done: true, value: [] });
          } catch (error) {
            return Promise.reject(new GoRejection((error as Error).message));
          }
        },
      };
      return parser as unknown as Parser;
    }
  }
  return { parse, Parser };
}
