// node:module's SourceMap for the VU's code in an isolate, with Node's findEntry: the last mapping
// at or before the generated position, across lines, or {} before the first (Node's
// lib/internal/source_map/source_map.js); script/errors.ts relies on exactly that.
import { decode } from '@jridgewell/sourcemap-codec';

interface Payload {
  sources: string[];
  names?: string[];
  mappings: string;
}

type Entry = [number, number, string | undefined, number | undefined, number | undefined, string | undefined];

export class SourceMap {
  private readonly entries: Entry[] = [];
  readonly payload: Payload;

  constructor(payload: Payload) {
    this.payload = payload;
    const lines = decode(payload.mappings);
    for (let line = 0; line < lines.length; line++) {
      for (const seg of lines[line]!) {
        this.entries.push([
          line,
          seg[0],
          seg.length > 1 ? payload.sources[seg[1]!] : undefined,
          seg.length > 1 ? seg[2] : undefined,
          seg.length > 1 ? seg[3] : undefined,
          seg.length > 4 ? payload.names?.[seg[4]!] : undefined,
        ]);
      }
    }
  }

  findEntry(line: number, column: number): Record<string, unknown> {
    let first = 0;
    let count = this.entries.length;
    while (count > 1) {
      const step = count >> 1;
      const middle = first + step;
      const entry = this.entries[middle]!;
      if (line < entry[0] || (line === entry[0] && column < entry[1])) count = step;
      else {
        first = middle;
        count -= step;
      }
    }
    const entry = this.entries[first];
    if (!entry || (first === 0 && (line < entry[0] || (line === entry[0] && column < entry[1])))) return {};
    return {
      generatedLine: entry[0],
      generatedColumn: entry[1],
      originalSource: entry[2],
      originalLine: entry[3],
      originalColumn: entry[4],
      name: entry[5],
    };
  }
}

/** Loading Node packages by path (k6/html's cheerio, k6/net/grpc's protobuf) needs a worker host. */
export function createRequire(): never {
  throw new Error('loading Node packages is not available in a VU isolate');
}

export default { SourceMap, createRequire };
