// k6's Response object (js/modules/k6/http/response.go): same keys, canonical header names,
// json(selector) with gjson-style paths.
import { httpTimingsOf, type HttpTimings } from '@loadlab/k6-format/http-timings';
import { Hop, type HopTuple } from '../../bridge/protocol.js';
import { HTTP_ERROR_CODE } from '../../bridge/http-error-codes.js';
import { canonicalHeaderKey, parseSetCookie, type ParsedCookie } from '../../bridge/go-http.js';
import { parseHTML, type Selection } from '../html/html.js';
import { goError } from '../api/go-error.js';
import { goJsonSyntaxError, k6JsonErrorPlace } from '../api/go-json-syntax.js';

/** A subset of gjson paths: `a.b.0.c`, `items.#` (length), `a\.b` for a literal dot. */
export function gjsonGet(value: unknown, selector: string): unknown {
  const parts = selector.split(/(?<!\\)\./).map((p) => p.replace(/\\\./g, '.'));
  let cur: unknown = value;
  for (const part of parts) {
    if (cur === null || cur === undefined) return undefined;
    if (Array.isArray(cur)) {
      if (part === '#') cur = cur.length;
      else if (/^\d+$/.test(part)) cur = cur[Number(part)];
      else return undefined;
    } else if (typeof cur === 'object') {
      if (!Object.prototype.hasOwnProperty.call(cur, part)) return undefined;
      cur = (cur as Record<string, unknown>)[part];
    } else {
      return undefined;
    }
  }
  return cur;
}

export type ResponseType = 'text' | 'binary' | 'none';

/**
 * k6 shows the request header map with sorted canonical keys, repeated names as one list. Index
 * loops and a plain sort(): this runs once per request in every VU's isolate, and V8 compiles it
 * once per isolate (destructuring and a comparator made that compile ~25 ms each).
 */
function requestHeaderMap(flat: string[]): Record<string, string[]> {
  const grouped: Record<string, string[]> = {};
  for (let i = 0; i < flat.length; i += 2) {
    const key = canonicalHeaderKey(flat[i]!);
    const list = grouped[key];
    if (list === undefined) grouped[key] = [flat[i + 1]!];
    else list.push(flat[i + 1]!);
  }
  const names = Object.keys(grouped);
  if (names.length < 2) return grouped;
  names.sort();
  const sorted: Record<string, string[]> = {};
  for (let i = 0; i < names.length; i++) sorted[names[i]!] = grouped[names[i]!]!;
  return sorted;
}

function unsupported(method: string): never {
  throw new Error(`Response.${method}() is not supported by the loadlab runner`);
}
// Shared by every Response (they use no `this`): three fewer closures per request.
const clickLink = (): never => unsupported('clickLink');
const submitForm = (): never => unsupported('submitForm');

export class Response {
  // `declare`: the fields are only typed here, the constructor creates them. A plain field
  // declaration compiles to a define of each key as undefined before the constructor's stores,
  // 20 extra property definitions per request in every VU's cold isolate.
  declare remote_ip: string;
  declare remote_port: number;
  declare url: string;
  declare status: number;
  declare status_text: string;
  declare proto: string;
  declare headers: Record<string, string>;
  declare cookies: Record<string, ParsedCookie[]>;
  declare body: string | ArrayBuffer | null;
  declare timings: HttpTimings;
  declare tls_version: string;
  declare tls_cipher_suite: string;
  declare ocsp: {
    produced_at: number;
    this_update: number;
    next_update: number;
    revocation_reason: string;
    revoked_at: number;
    status: string;
  };
  declare error: string;
  declare error_code: number;
  /** null for a URL k6 could not parse: no request was made. */
  declare request: {
    method: string;
    url: string;
    headers: Record<string, string[]>;
    body: string;
    cookies: Record<string, unknown[]>;
  } | null;
  // Methods are own enumerable properties, as in k6 (Object.keys(res) lists them).
  declare clickLink: () => never;
  declare html: (selector?: string) => Selection;
  declare json: (selector?: string) => unknown;
  declare submitForm: () => never;

  constructor(hop: HopTuple, responseType: ResponseType, requestBody: string) {
    this.remote_ip = hop[Hop.remoteIp];
    this.remote_port = hop[Hop.remotePort];
    // k6 makes no request of a URL it cannot parse: the response has no URL and no request.
    const made = hop[Hop.errorCode] !== HTTP_ERROR_CODE.invalidUrl;
    this.url = made ? hop[Hop.url] : '';
    const status = hop[Hop.status];
    this.status = status;
    this.status_text = status ? `${status} ${hop[Hop.statusText]}` : '';
    this.proto = hop[Hop.proto];
    this.headers = {};
    this.cookies = {};
    const raw = hop[Hop.headers];
    for (let i = 0; i < raw.length; i += 2) {
      const key = canonicalHeaderKey(raw[i]!);
      const v = raw[i + 1]!;
      // Go's client moves Transfer-Encoding out of the header map; k6 scripts never see it.
      if (key === 'Transfer-Encoding') continue;
      this.headers[key] = this.headers[key] === undefined ? v : `${this.headers[key]}, ${v}`;
      if (key === 'Set-Cookie') {
        const c = parseSetCookie(v);
        if (c) (this.cookies[c.name] ??= []).push(c);
      }
    }
    const body = hop[Hop.body];
    if (body === null || responseType === 'none') this.body = null;
    else if (typeof body === 'string')
      this.body = body; // 'text', decoded by the engine
    else if (responseType === 'binary') {
      this.body = body.buffer.slice(body.byteOffset, body.byteOffset + body.byteLength) as ArrayBuffer;
    } else this.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength).toString('utf8');
    this.timings = httpTimingsOf(hop[Hop.timings]);
    this.tls_version = hop[Hop.tlsVersion];
    this.tls_cipher_suite = '';
    this.ocsp = {
      produced_at: 0,
      this_update: 0,
      next_update: 0,
      revocation_reason: '',
      revoked_at: 0,
      status: '',
    };
    this.error = hop[Hop.error];
    this.error_code = hop[Hop.errorCode];
    // Not a nested literal (cookies: {} inside): that is copied from its boilerplate the slow way.
    const requestCookies = {};
    this.request = made
      ? {
          method: hop[Hop.method],
          url: hop[Hop.url],
          headers: requestHeaderMap(hop[Hop.requestHeaders]),
          body: requestBody,
          cookies: requestCookies,
        }
      : null;
    this.clickLink = clickLink;
    this.html = htmlReader(this);
    this.json = jsonReader(this);
    this.submitForm = submitForm;
  }
}

/** Response.html(selector?): the body as a document Selection, or what the selector finds in it. */
function htmlReader(res: Response): (selector?: string) => Selection {
  // Parsed on the first call only, as json() is: nothing in k6/html changes the document.
  let doc: Selection | undefined;
  return (selector?: string) => {
    if (!doc) {
      if (res.body === null)
        throw goError(
          "the body is null so we can't transform it to HTML - this likely was because of a request error getting the response",
        );
      const text = typeof res.body === 'string' ? res.body : Buffer.from(res.body).toString('utf8');
      doc = parseHTML(text, res.url);
    }
    return selector === undefined ? doc : doc.find(selector);
  };
}

/**
 * Response.json(): the body is parsed on the first call only; selectors read the parsed value. A
 * body that is not JSON is Go's error in k6's words (its line and character), or, with a selector,
 * undefined (gjson reads nothing of it).
 */
function jsonReader(res: Response): (selector?: string) => unknown {
  let parsed: unknown;
  let state: 'unread' | 'parsed' | 'invalid' = 'unread';
  /** The body as text, kept for the error of one that is not JSON. */
  let text = '';
  return (selector?: string) => {
    const body = res.body;
    if (body === null)
      throw goError(
        "the body is null so we can't transform it to JSON - this likely was because of a request error getting the response",
      );
    if (state === 'unread') {
      text = typeof body === 'string' ? body : new TextDecoder().decode(body);
      try {
        parsed = JSON.parse(text);
        state = 'parsed';
      } catch {
        state = 'invalid';
      }
    }
    if (state === 'invalid') {
      if (selector !== undefined) return undefined;
      const bytes = typeof body === 'string' ? new TextEncoder().encode(body) : new Uint8Array(body);
      const syntax = goJsonSyntaxError(bytes) ?? {
        message: 'unexpected end of JSON input',
        offset: bytes.length,
      };
      const { line, character } = k6JsonErrorPlace(text, syntax.offset);
      throw goError(
        `cannot parse json due to an error at line ${line}, character ${character} , error: ${syntax.message}`,
      );
    }
    return selector === undefined ? parsed : gjsonGet(parsed, selector);
  };
}
