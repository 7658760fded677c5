// A malformed status line in Go's words (net/http's ReadResponse: `malformed HTTP status code
// "abc"`), where undici's parser says "Response does not match the HTTP/1.1 protocol (Invalid status
// code)". undici's error keeps only the text after where its parser stopped; the engine keeps what
// a connection read before the answer's head was complete, where the whole line is.
import { goQuote } from '@loadlab/k6-format/go-quote';

const UNDICI_PARSER_ERROR = 'Response does not match the HTTP/1.1 protocol';

/** What Go's transport wraps a response it could not read in. */
const GO_BROKEN = 'net/http: HTTP/1.x transport connection broken: ';

/** Go's words for a status line it refuses; undefined for one it reads. */
export function goStatusLineError(line: string): string | undefined {
  const space = line.indexOf(' ');
  if (space < 0) return `malformed HTTP response ${goQuote(line)}`;
  const proto = line.slice(0, space);
  const status = line.slice(space + 1).replace(/^ +/, '');
  const code = status.split(' ', 1)[0]!;
  // strconv.Atoi takes a sign; a negative code is refused all the same.
  if (code.length !== 3 || !/^[+-]?\d+$/.test(code) || Number(code) < 0)
    return `malformed HTTP status code ${goQuote(code)}`;
  // http.ParseHTTPVersion: HTTP/ and one digit each side of the dot.
  if (!/^HTTP\/\d\.\d$/.test(proto)) return `malformed HTTP version ${goQuote(proto)}`;
  return undefined;
}

/**
 * k6's error, code and Go's full words for undici's parser error on a status line, given the bytes
 * the connection read for this answer before its head was complete; undefined for any other error,
 * or where the line is not found (then undici's words stand).
 */
export function statusLineRefusal(
  err: Error & { data?: unknown },
  read: Buffer[] | undefined,
): { error: string; code: number; detail: string } | undefined {
  if (!err.message.startsWith(UNDICI_PARSER_ERROR) || !read?.length || typeof err.data !== 'string') return;
  const text = Buffer.concat(read).toString('latin1');
  // undici's data is what followed the point its parser stopped at, in the last chunk read.
  if (!text.endsWith(err.data)) return;
  const stopped = text.length - err.data.length;
  const start = text.lastIndexOf('\n', stopped - 1) + 1;
  const end = text.indexOf('\n', stopped);
  const line = text.slice(start, end < 0 ? undefined : end).replace(/\r$/, '');
  const error = goStatusLineError(line);
  return error === undefined ? undefined : { error, code: 1000, detail: GO_BROKEN + error };
}
