// http.file() and the multipart/form-data body k6 builds from an object holding one (Go's
// mime/multipart writer: a random 60-hex boundary, a part per field, file parts with a filename
// and a Content-Type). Other fields are written as Go's fmt.Sprint shows them, as in k6.
import { goBytes, goSprint } from '../api/go-values.js';

const FILE = Symbol('loadlab.fileData');

/** What http.file() returns: k6 shows exactly these three keys. */
export interface FileData {
  data: unknown;
  filename: string;
  content_type: string;
  [FILE]: true;
}

/** Nanoseconds since the epoch, as Go's time.Now().UnixNano() names an unnamed file in k6. */
function unixNanos(): string {
  return String(BigInt(Date.now()) * 1_000_000n + (process.hrtime.bigint() % 1_000_000n));
}

/** http.file(data, filename?, contentType?). */
export function httpFile(data: unknown, filename?: unknown, contentType?: unknown): FileData {
  const file = {
    data,
    filename: filename === undefined || filename === null || filename === '' ? unixNanos() : String(filename),
    content_type:
      contentType === undefined || contentType === null || contentType === ''
        ? 'application/octet-stream'
        : String(contentType),
  };
  return Object.defineProperty(file, FILE, { value: true }) as FileData;
}

export function isFileData(v: unknown): v is FileData {
  return typeof v === 'object' && v !== null && FILE in v;
}

/** True when k6 sends this body object as multipart/form-data (one of its values is a file). */
export function hasFile(body: Record<string, unknown>): boolean {
  return Object.values(body).some(isFileData);
}

/** Go's multipart escapeQuotes for a name or filename. */
function quoted(s: string): string {
  return s.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
}

/** The body and its Content-Type header value. */
export function multipartBody(body: Record<string, unknown>): { bytes: Uint8Array; contentType: string } {
  // node:crypto on first use, not at every VU's start.
  const boundary = process.getBuiltinModule('node:crypto').randomBytes(30).toString('hex');
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(body)) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"`;
    let data: Buffer;
    if (isFileData(value)) {
      head += `; filename="${quoted(value.filename)}"\r\nContent-Type: ${value.content_type}`;
      data = goBytes(value.data);
    } else data = Buffer.from(goSprint(value), 'utf8');
    parts.push(Buffer.from(`${head}\r\n\r\n`, 'utf8'), data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  const all = Buffer.concat(parts);
  return {
    bytes: new Uint8Array(all.buffer, all.byteOffset, all.byteLength),
    contentType: `multipart/form-data; boundary=${boundary}`,
  };
}
