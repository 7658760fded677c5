// HTTP Digest authentication (RFC 7616) for `params.auth = 'digest'`: k6 sends the request first as
// it is (Go's client adds Basic credentials from the URL), and when the answer is a 401 with a Digest
// challenge, sends it again with the Authorization computed from the URL's user and password.
import { createHash, randomBytes } from 'node:crypto';

/** The parameters of a `WWW-Authenticate: Digest ...` value (undefined for another scheme). */
export function parseDigestChallenge(header: string): Record<string, string> | undefined {
  const m = /^\s*digest\s+(.*)$/is.exec(header);
  if (!m) return undefined;
  const params: Record<string, string> = {};
  const re = /([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g;
  for (let p = re.exec(m[1]!); p; p = re.exec(m[1]!)) {
    params[p[1]!.toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : p[3]!;
  }
  return params;
}

export interface DigestInput {
  method: string;
  /** The request target: path and query. */
  uri: string;
  username: string;
  password: string;
  challenge: Record<string, string>;
  /** Fixed in tests; random otherwise. */
  cnonce?: string;
}

/** The Authorization header value answering a Digest challenge (MD5, SHA-256 and their -sess forms). */
export function digestAuthorization(d: DigestInput): string {
  const c = d.challenge;
  const algorithm = c.algorithm ?? 'MD5';
  const hashName = /^sha-256/i.test(algorithm) ? 'sha256' : 'md5';
  const h = (s: string) => createHash(hashName).update(s).digest('hex');
  const realm = c.realm ?? '';
  const nonce = c.nonce ?? '';
  const cnonce = d.cnonce ?? randomBytes(16).toString('hex');
  const nc = '00000001';
  const qop = (c.qop ?? '')
    .split(',')
    .map((q) => q.trim())
    .find((q) => q === 'auth');
  let ha1 = h(`${d.username}:${realm}:${d.password}`);
  if (/-sess$/i.test(algorithm)) ha1 = h(`${ha1}:${nonce}:${cnonce}`);
  const ha2 = h(`${d.method}:${d.uri}`);
  const response = qop ? h(`${ha1}:${nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${nonce}:${ha2}`);
  const parts = [
    `username="${d.username}"`,
    `realm="${realm}"`,
    `nonce="${nonce}"`,
    `uri="${d.uri}"`,
    `algorithm="${algorithm}"`,
    `response="${response}"`,
  ];
  if (qop) parts.push(`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`);
  if (c.opaque !== undefined) parts.push(`opaque="${c.opaque}"`);
  return `Digest ${parts.join(', ')}`;
}
