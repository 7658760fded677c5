// What Go (and so k6) says about a request URL that is never sent. Node's URL parser refuses or
// accepts different strings than Go's net/url, and k6 reports each case in Go's words with its own
// error code: a URL Go cannot parse is "invalid URL" (1020, no request made), one with another
// scheme than http(s) fails in the client as "unsupported protocol scheme" (1000).

import { HTTP_ERROR_CODE } from '../bridge/http-error-codes.js';

export interface UrlRefusal {
  error: string;
  code: number;
}

/** Go's url.Parse scheme rule (getScheme): a letter, then letters, digits, + - . up to ':'. */
function goScheme(url: string): string | undefined {
  for (let i = 0; i < url.length; i++) {
    const c = url[i]!;
    if (/[A-Za-z]/.test(c)) continue;
    if (/[0-9+.-]/.test(c)) {
      if (i === 0) return '';
      continue;
    }
    if (c === ':') return i === 0 ? undefined : url.slice(0, i).toLowerCase();
    return '';
  }
  return '';
}

/** Go's net/url refuses ASCII control characters anywhere in a URL; Node drops tabs and newlines. */
export function hasControlChar(url: string): boolean {
  for (let i = 0; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}

/** Go's %q for the strings that reach here (JSON's escapes agree with Go's for these). */
const quote = (s: string): string => JSON.stringify(s);

/** Go's *url.Error from url.Parse. */
const goParseError = (url: string, detail: string): string => `parse ${quote(url)}: ${detail}`;
const CONTROL_CHARACTER = 'net/url: invalid control character in URL';

const parseError = (url: string, detail: string): UrlRefusal => ({
  error: `invalid URL: ${goParseError(url, detail)}`,
  code: HTTP_ERROR_CODE.invalidUrl,
});

/** Why Go rejects an http(s) URL that Node's parser also rejected: the host part, as net/url checks it. */
function hostDetail(url: string): string {
  const authority = /^[^:]*:\/\/([^/?#]*)/.exec(url)?.[1] ?? '';
  const hostPort = authority.slice(authority.lastIndexOf('@') + 1);
  const port = /:([^:\]]*)$/.exec(hostPort);
  if (port && !/^\d*$/.test(port[1]!)) return `invalid port ":${port[1]}" after host`;
  const host = port ? hostPort.slice(0, port.index) : hostPort;
  const bad = /[^A-Za-z0-9.\-_~!$&'()*+,;=[\]:%]/.exec(host);
  if (bad) return `invalid character ${quote(bad[0])} in host name`;
  return 'invalid URL';
}

/**
 * Where a redirect goes, or Go's client error for a Location header it cannot parse (k6: code 1000,
 * the 3xx hop keeps its samples, the answer has status 0).
 */
export function resolveLocation(location: string, base: string): { url: string } | UrlRefusal {
  const failed = (detail: string): UrlRefusal => ({
    error: `failed to parse Location header ${quote(location)}: ${goParseError(location, detail)}`,
    code: HTTP_ERROR_CODE.default,
  });
  if (hasControlChar(location)) return failed(CONTROL_CHARACTER);
  try {
    return { url: new URL(location, base).toString() };
  } catch {
    return failed('invalid URL');
  }
}

/** The refusal k6 reports for a `url` that Node's parser did not take as http(s). */
export function refuseUrl(url: string): UrlRefusal {
  if (hasControlChar(url)) return parseError(url, CONTROL_CHARACTER);
  const scheme = goScheme(url);
  if (scheme === undefined) return parseError(url, 'missing protocol scheme');
  if (scheme !== 'http' && scheme !== 'https') {
    return { error: `unsupported protocol scheme ${quote(scheme)}`, code: HTTP_ERROR_CODE.default };
  }
  if (/^[^:]*:\/\/([/?#]|$)/.test(url))
    return { error: 'http: no Host in request URL', code: HTTP_ERROR_CODE.default };
  return parseError(url, hostDetail(url));
}
