// Go's HTTP words that both threads need: the VU's Response (k6/http) and the main thread's
// engines name headers, read Set-Cookie and refuse URLs the same way, so each lives here once.

/** Header names repeat on every response: remembering them keeps this off the per-request cost. */
const canonicalCache = new Map<string, string>();
const CANONICAL_CACHE_MAX = 1000;

/** Go's textproto.CanonicalMIMEHeaderKey: "content-type" -> "Content-Type". */
export function canonicalHeaderKey(key: string): string {
  const known = canonicalCache.get(key);
  if (known !== undefined) return known;
  const canonical = !/^[A-Za-z0-9-]+$/.test(key)
    ? key
    : key
        .toLowerCase()
        .split('-')
        .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
        .join('-');
  if (canonicalCache.size >= CANONICAL_CACHE_MAX) canonicalCache.clear();
  canonicalCache.set(key, canonical);
  return canonical;
}

export interface ParsedCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  http_only: boolean;
  secure: boolean;
  max_age: number;
  expires: number;
}

/** Parses one Set-Cookie header value into k6's Response.cookies entry shape. */
export function parseSetCookie(header: string): ParsedCookie | undefined {
  const parts = header.split(';');
  const first = parts.shift() ?? '';
  const eq = first.indexOf('=');
  if (eq <= 0) return undefined;
  const c: ParsedCookie = {
    name: first.slice(0, eq).trim(),
    value: first.slice(eq + 1).trim(),
    domain: '',
    path: '',
    http_only: false,
    secure: false,
    max_age: 0,
    expires: 0,
  };
  for (const part of parts) {
    const [rawKey = '', ...rest] = part.split('=');
    const key = rawKey.trim().toLowerCase();
    const val = rest.join('=').trim();
    if (key === 'domain') c.domain = val.replace(/^\./, '');
    else if (key === 'path') c.path = val;
    else if (key === 'httponly') c.http_only = true;
    else if (key === 'secure') c.secure = true;
    else if (key === 'max-age') c.max_age = Number(val) || 0;
    else if (key === 'expires') c.expires = Date.parse(val) || 0;
  }
  return c;
}

/**
 * Why Node's fetch failed, as Go's client words it: fetch says only "fetch failed" and keeps the
 * reason in its cause, a refused dial in Node's words (`connect ECONNREFUSED 127.0.0.1:1`).
 */
export function goFetchFailure(error: Error): string {
  const cause = error.cause as
    { message?: string; code?: string; address?: string; port?: number } | undefined;
  if (cause?.code === 'ECONNREFUSED')
    return `dial tcp ${cause.address}:${cause.port}: connect: connection refused`;
  return cause?.message ?? cause?.code ?? error.message;
}
