// An http(s) URL as Go's net/url parses and writes it, which k6's client uses: Response.url, the
// `url` and `name` tags (url.URL.String()) and the request line's target (url.URL.RequestURI()).
// Node's WHATWG parser normalises what Go keeps: it drops dot segments (`/a/../b` went out as `/b`),
// reads `\` as `/`, percent-encodes `'`, `"`, `<`, `>` and non-ASCII in the query, lowercases the
// host and adds a `/` to an empty path; Go keeps all of these as written, and escapes in the path
// what WHATWG keeps (`^`, `|`, `` ` ``, `\`). Go works on the URL's UTF-8 bytes: so does this.

import { HTTP_ERROR_CODE } from '../bridge/http-error-codes.js';
import type { UrlRefusal } from './go-url.js';

export interface GoHttpUrl {
  /** url.URL.String(): Response.url, and the tags once credentials are masked. */
  text: string;
  /** url.URL.RequestURI() as the request line's bytes (UTF-8 written as latin1, as undici writes a head). */
  requestTarget: string;
  /**
   * The Host header Go's client sends: the host as written, its case and an explicit default port
   * kept (WHATWG lowercases the one and drops the other). Undefined where Go would rewrite it (a
   * %-escaped or non-ASCII name, which Go turns to punycode): Node's is then the same.
   */
  hostHeader: string | undefined;
}

const enum Mode {
  path,
  host,
  userPassword,
  fragment,
}

const isAlnum = (c: number) =>
  (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || (c >= 0x30 && c <= 0x39);

/** Go's shouldEscape for the modes an http URL's parts use. */
function shouldEscape(c: number, mode: Mode): boolean {
  if (isAlnum(c)) return false;
  const ch = String.fromCharCode(c);
  if (mode === Mode.host && `!$&'()*+,;=:[]<>"`.includes(ch)) return false;
  if ('-_.~'.includes(ch)) return false;
  if ('$&+,/:;=?@'.includes(ch)) {
    if (mode === Mode.path) return ch === '?';
    if (mode === Mode.userPassword) return ch === '@' || ch === '/' || ch === '?' || ch === ':';
    if (mode === Mode.fragment) return false;
    return true; // a host: `/`, `?` and `@` (it allowed the others above)
  }
  if (mode === Mode.fragment && '!()*'.includes(ch)) return false;
  return true;
}

const isHex = (c: number) => (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
const hexValue = (c: number) => (c <= 0x39 ? c - 0x30 : (c | 0x20) - 0x61 + 10);
const latin1 = (bytes: Uint8Array) => Buffer.from(bytes).toString('latin1');

/** Go's unescape: the decoded bytes, or its error's words. */
function unescape(s: Uint8Array, mode: Mode): Uint8Array | string {
  const out: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === 0x25) {
      if (i + 2 >= s.length || !isHex(s[i + 1]!) || !isHex(s[i + 2]!))
        return `invalid URL escape ${JSON.stringify(latin1(s.subarray(i, i + 3)))}`;
      const value = (hexValue(s[i + 1]!) << 4) | hexValue(s[i + 2]!);
      if (mode === Mode.host && value < 0x80 && latin1(s.subarray(i, i + 3)) !== '%25')
        return `invalid URL escape ${JSON.stringify(latin1(s.subarray(i, i + 3)))}`;
      out.push(value);
      i += 2;
    } else {
      if (mode === Mode.host && c < 0x80 && shouldEscape(c, mode))
        return `invalid character ${JSON.stringify(String.fromCharCode(c))} in host name`;
      out.push(c);
    }
  }
  return Uint8Array.from(out);
}

const UPPER_HEX = '0123456789ABCDEF';

/** Go's escape: ASCII text, each byte that needs it as %XX. */
function escape(s: Uint8Array, mode: Mode): string {
  let out = '';
  for (const c of s)
    out += shouldEscape(c, mode) ? `%${UPPER_HEX[c >> 4]}${UPPER_HEX[c & 15]}` : String.fromCharCode(c);
  return out;
}

/** Go's validEncoded: no byte that escape() would have escaped, but the sub-delims and `%`. */
function validEncoded(s: Uint8Array, mode: Mode): boolean {
  for (const c of s) {
    if ("!$&'()*+,;=:@[]%".includes(String.fromCharCode(c))) continue;
    if (shouldEscape(c, mode)) return false;
  }
  return true;
}

const sameBytes = (a: Uint8Array, b: Uint8Array) => a.length === b.length && a.every((x, i) => x === b[i]);

/** Go's EscapedPath (and EscapedFragment): the raw form when it is a valid escaping of the decoded one. */
function escapedForm(raw: Uint8Array, decoded: Uint8Array, mode: Mode): string {
  if (validEncoded(raw, mode)) {
    const again = unescape(raw, mode);
    if (typeof again !== 'string' && sameBytes(again, decoded)) return latin1(raw);
  }
  return escape(decoded, mode);
}

const utf8 = (text: string) => new Uint8Array(Buffer.from(text, 'utf8'));

/** Go's parseHost: host[:port], or an IP literal in brackets; its error's words. */
function parseHost(host: string): Uint8Array | string {
  let end = host.length;
  if (host.startsWith('[')) {
    end = host.lastIndexOf(']');
    if (end < 0) return "missing ']' in host";
    end += 1;
  } else if (host.lastIndexOf(':') >= 0) end = host.lastIndexOf(':');
  const port = host.slice(end);
  if (port !== '' && !/^:\d*$/.test(port)) return `invalid port ${JSON.stringify(port)} after host`;
  return unescape(utf8(host), Mode.host);
}

/** Go's userinfo check (validUserinfo): the characters RFC 3986 allows, and `%`, `@` aside. */
const VALID_USERINFO = /^[A-Za-z0-9\-._:~!$&'()*+,;=%@]*$/;

/**
 * `raw` (an http(s) URL Node's parser took, without control characters) as Go parses and writes it,
 * or Go's refusal when it cannot parse it (k6: "invalid URL", no request made). Undefined for the
 * forms Go reads differently altogether (`http:host` without `//`): the caller keeps Node's reading.
 */
export function goHttpUrl(raw: string): GoHttpUrl | UrlRefusal | undefined {
  const refuse = (detail: string, url = withoutFragment): UrlRefusal => ({
    error: `invalid URL: parse ${JSON.stringify(url)}: ${detail}`,
    code: HTTP_ERROR_CODE.invalidUrl,
  });
  const hash = raw.indexOf('#');
  const withoutFragment = hash < 0 ? raw : raw.slice(0, hash);
  const colon = withoutFragment.indexOf(':');
  const scheme = withoutFragment.slice(0, colon).toLowerCase();
  let rest = withoutFragment.slice(colon + 1);
  let query: string | undefined;
  const question = rest.indexOf('?');
  if (question >= 0) {
    query = rest.slice(question + 1);
    rest = rest.slice(0, question);
  }
  if (!rest.startsWith('//')) return undefined;
  const slash = rest.indexOf('/', 2);
  const authority = slash < 0 ? rest.slice(2) : rest.slice(2, slash);
  const rawPath = utf8(slash < 0 ? '' : rest.slice(slash));

  const at = authority.lastIndexOf('@');
  const host = parseHost(authority.slice(at + 1));
  if (typeof host === 'string') return refuse(host);
  // Go parses `http:///x` with an empty host, which its client refuses (refuseUrl's words).
  if (host.length === 0) return { error: 'http: no Host in request URL', code: HTTP_ERROR_CODE.default };
  let user = '';
  if (at >= 0) {
    const info = authority.slice(0, at);
    if (!VALID_USERINFO.test(info)) return refuse('net/url: invalid userinfo');
    const parts: string[] = [];
    for (const part of info.includes(':')
      ? [info.slice(0, info.indexOf(':')), info.slice(info.indexOf(':') + 1)]
      : [info]) {
      const decoded = unescape(utf8(part), Mode.userPassword);
      if (typeof decoded === 'string') return refuse(decoded);
      parts.push(escape(decoded, Mode.userPassword));
    }
    user = `${parts.join(':')}@`;
  }
  const path = unescape(rawPath, Mode.path);
  if (typeof path === 'string') return refuse(path);
  let fragment = '';
  if (hash >= 0 && hash < raw.length - 1) {
    const rawFragment = utf8(raw.slice(hash + 1));
    const decoded = unescape(rawFragment, Mode.fragment);
    if (typeof decoded === 'string') return refuse(decoded, raw);
    if (decoded.length > 0) fragment = `#${escapedForm(rawFragment, decoded, Mode.fragment)}`;
  }

  const escapedPath = escapedForm(rawPath, path, Mode.path);
  const search = query === undefined ? '' : `?${query}`;
  const hostText = escape(host, Mode.host);
  const written = authority.slice(at + 1);
  return {
    text: `${scheme}://${user}${hostText}${escapedPath}${search}${fragment}`,
    hostHeader: /^[\x21-\x7e]+$/.test(written) && !written.includes('%') ? written : undefined,
    // undici refuses a space in the target, which Go would send (and a server refuse): it goes escaped.
    requestTarget: latin1(utf8(`${escapedPath || '/'}${search}`)).replaceAll(' ', '%20'),
  };
}
