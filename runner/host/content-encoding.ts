// Response bodies decoded as k6 decodes them (lib/netext/httpext/compression.go readResponseBody):
// whatever the request asked, every coding the Content-Encoding header lists that k6 knows
// (`gzip`, `deflate` as zlib, `br`, `zstd`; exact, lower-case names) is undone, last first; others
// are left as they are. A body that does not decode fails the request as k6 fails it: status 0,
// the error in Go's words (code 1701 for a decompression error, 1000 for a body cut short), and
// the text decoded before the failure.
import zlib from 'node:zlib';
import { decompress as fzstdDecompress } from 'fzstd';
import { HTTP_ERROR_CODE } from '../bridge/http-error-codes.js';

export type Decoded =
  | { ok: true; body: Buffer }
  | {
      ok: false;
      /** What was decoded before the failure; null when the decoder could not even start (a bad header). */
      body: Buffer | null;
      /** Response.error (k6 wraps a listed Go error twice there). */
      error: string;
      /** The "Request Failed" line's error (wrapped once). */
      logError: string;
      code: number;
    };

const CODINGS = ['gzip', 'deflate', 'br', 'zstd'] as const;
type Coding = (typeof CODINGS)[number];

/** The codings k6 will undo, in the order it undoes them (the header's last first). */
export function codingsToUndo(contentEncoding: string | undefined): Coding[] {
  if (!contentEncoding) return [];
  return contentEncoding
    .split(',')
    .map((c) => c.trim())
    .filter((c): c is Coding => (CODINGS as readonly string[]).includes(c))
    .reverse();
}

/** Node's zstd (22.15+, 24), else fzstd's (a decoder in plain JavaScript) on Node 20. */
const zstdDecompressSync =
  (zlib as unknown as { zstdDecompressSync?: (b: Buffer) => Buffer }).zstdDecompressSync ??
  ((b: Buffer) => Buffer.from(fzstdDecompress(b)));

function strict(coding: Coding, input: Buffer): Buffer {
  switch (coding) {
    case 'gzip':
      return zlib.gunzipSync(input);
    case 'deflate':
      return zlib.inflateSync(input);
    case 'br':
      return zlib.brotliDecompressSync(input);
    case 'zstd':
      return zstdDecompressSync(input);
  }
}

/**
 * What decodes before the error: the decoder flushed instead of finished. A checksum is checked
 * after the last byte, so a body whose checksum is wrong decodes whole without its trailer.
 */
function partial(coding: Coding, input: Buffer, checksum: boolean): Buffer {
  const flush = { finishFlush: zlib.constants.Z_SYNC_FLUSH };
  try {
    if (coding === 'gzip') return zlib.gunzipSync(checksum ? input.subarray(0, -8) : input, flush);
    if (coding === 'deflate') return zlib.inflateSync(checksum ? input.subarray(0, -4) : input, flush);
    if (coding === 'br')
      return zlib.brotliDecompressSync(input, { finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
  } catch {
    // Corrupt before any output.
  }
  return Buffer.alloc(0);
}

/** k6's K6Error around a decompression error: `error decompressing response body (…)`. */
const wrap = (message: string) => `error decompressing response body (${message})`;

/**
 * Go's error for a body Node could not decode, and where it stops: `header` (Go's NewReader fails:
 * no body at all), or the body decoded up to there. `listed` errors are those k6's
 * decompressionErrors holds, which Response.error wraps a second time.
 */
function goError(
  coding: Coding,
  input: Buffer,
  error: NodeJS.ErrnoException,
): { message: string; listed: boolean; decompression: boolean; atHeader: boolean } {
  const message = error.message;
  const truncated = /unexpected end of file/.test(message);
  if (coding === 'gzip' || coding === 'deflate') {
    const name = coding === 'gzip' ? 'gzip' : 'zlib';
    const headerSize = coding === 'gzip' ? 10 : 2;
    // Go's NewReader reads the header first: nothing there is EOF, part of it unexpected EOF.
    if (input.length === 0) return { message: 'EOF', listed: false, decompression: true, atHeader: true };
    if (input.length < headerSize)
      return { message: 'unexpected EOF', listed: false, decompression: true, atHeader: true };
    if (/header check|unknown compression method|invalid window size/.test(message))
      return { message: `${name}: invalid header`, listed: true, decompression: true, atHeader: true };
    if (/need dictionary/.test(message))
      return { message: 'zlib: invalid dictionary', listed: true, decompression: true, atHeader: true };
    if (/data check|length check/.test(message))
      return { message: `${name}: invalid checksum`, listed: true, decompression: true, atHeader: false };
    if (truncated) return { message: 'unexpected EOF', listed: false, decompression: false, atHeader: false };
    return { message: `flate: ${message}`, listed: false, decompression: false, atHeader: false };
  }
  if (coding === 'br') {
    if (truncated) return { message: 'unexpected EOF', listed: false, decompression: false, atHeader: false };
    // Node names the decoder's error in its code (ERR__ERROR_FORMAT_PADDING_1); Go's brotli prints its tail.
    const reason = /_ERROR_(?:FORMAT_)?(.+)$/.exec(error.code ?? '')?.[1] ?? message;
    return { message: `brotli: ${reason}`, listed: false, decompression: true, atHeader: false };
  }
  // zstd: the frame's magic first, as Go's decoder checks it.
  if (input.length < 4 || input.readUInt32LE(0) !== 0xfd2fb528)
    return {
      message: 'invalid input: magic number mismatch',
      listed: true,
      decompression: true,
      atHeader: false,
    };
  // fzstd's code 5 and Node's words for a frame cut short.
  if (truncated || (error.code as unknown) === 5 || /unexpected EOF|truncated/i.test(message))
    return { message: 'unexpected EOF', listed: false, decompression: false, atHeader: false };
  return { message, listed: false, decompression: true, atHeader: false };
}

/** The body with every coding k6 knows undone, or k6's failure. */
export function decodeBody(body: Buffer, contentEncoding: string | undefined): Decoded {
  let current = body;
  for (const coding of codingsToUndo(contentEncoding)) {
    try {
      current = strict(coding, current);
    } catch (caught) {
      const error = caught as NodeJS.ErrnoException;
      const go = goError(coding, current, error);
      const logError = go.decompression ? wrap(go.message) : go.message;
      return {
        ok: false,
        body: go.atHeader ? null : partial(coding, current, go.message.endsWith('invalid checksum')),
        error: go.listed ? wrap(logError) : logError,
        logError,
        code: go.decompression ? HTTP_ERROR_CODE.responseDecompression : HTTP_ERROR_CODE.default,
      };
    }
  }
  return { ok: true, body: current };
}
