// k6's Response object (js/modules/k6/http/response.go): same keys, canonical header names,
// json(selector) with gjson-style paths.
import type { WireHop } from '../vu/protocol.js';
import { parseSetCookie, type ParsedCookie } from '../vu/cookie-jar.js';

/** Go's textproto.CanonicalMIMEHeaderKey: "content-type" -> "Content-Type". */
export function canonicalHeaderKey(key: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(key)) return key;
  return key
    .toLowerCase()
    .split('-')
    .map((p) => (p ? p[0]!.toUpperCase() + p.slice(1) : p))
    .join('-');
}

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

export class Response {
  remote_ip: string;
  remote_port: number;
  url: string;
  status: number;
  status_text: string;
  proto: string;
  headers: Record<string, string>;
  cookies: Record<string, ParsedCookie[]>;
  body: string | ArrayBuffer | null;
  timings: WireHop['timings'];
  tls_version: string;
  tls_cipher_suite: string;
  ocsp: {
    produced_at: number;
    this_update: number;
    next_update: number;
    revocation_reason: string;
    revoked_at: number;
    status: string;
  };
  error: string;
  error_code: number;
  request: {
    method: string;
    url: string;
    headers: Record<string, string[]>;
    body: string;
    cookies: Record<string, unknown[]>;
  };
  #parsed: unknown;
  #hasParsed = false;

  constructor(hop: WireHop, responseType: ResponseType, requestBody: string) {
    this.remote_ip = hop.remoteIp;
    this.remote_port = hop.remotePort;
    this.url = hop.url;
    this.status = hop.status;
    this.status_text = hop.status ? `${hop.status} ${hop.statusText}` : '';
    this.proto = hop.proto;
    this.headers = {};
    this.cookies = {};
    let parsedUrl: URL | undefined;
    try {
      parsedUrl = new URL(hop.url);
    } catch {
      parsedUrl = undefined;
    }
    for (const [k, v] of hop.headers) {
      const key = canonicalHeaderKey(k);
      this.headers[key] = this.headers[key] === undefined ? v : `${this.headers[key]}, ${v}`;
      if (key === 'Set-Cookie' && parsedUrl) {
        const c = parseSetCookie(v, parsedUrl);
        if (c) (this.cookies[c.name] ??= []).push(c);
      }
    }
    if (hop.body === null || responseType === 'none') this.body = null;
    else if (responseType === 'binary') {
      this.body = hop.body.buffer.slice(
        hop.body.byteOffset,
        hop.body.byteOffset + hop.body.byteLength,
      ) as ArrayBuffer;
    } else
      this.body = Buffer.from(hop.body.buffer, hop.body.byteOffset, hop.body.byteLength).toString('utf8');
    this.timings = hop.timings;
    this.tls_version = hop.tlsVersion;
    this.tls_cipher_suite = '';
    this.ocsp = {
      produced_at: 0,
      this_update: 0,
      next_update: 0,
      revocation_reason: '',
      revoked_at: 0,
      status: '',
    };
    this.error = hop.error;
    this.error_code = hop.errorCode;
    const reqHeaders: Record<string, string[]> = {};
    for (const [k, v] of hop.requestHeaders) (reqHeaders[canonicalHeaderKey(k)] ??= []).push(v);
    this.request = { method: hop.method, url: hop.url, headers: reqHeaders, body: requestBody, cookies: {} };
  }

  json(selector?: string): unknown {
    if (this.body === null) throw new Error('cannot parse json due to an error: the body is null');
    if (!this.#hasParsed) {
      const text = typeof this.body === 'string' ? this.body : Buffer.from(this.body).toString('utf8');
      try {
        this.#parsed = JSON.parse(text);
      } catch (err) {
        throw new Error(
          `cannot parse json due to an error at line 1, character 1 , error: ${(err as Error).message}`,
          { cause: err },
        );
      }
      this.#hasParsed = true;
    }
    return selector === undefined ? this.#parsed : gjsonGet(this.#parsed, selector);
  }

  html(): never {
    throw new Error('Response.html() is not supported by the loadlab runner');
  }
  clickLink(): never {
    throw new Error('Response.clickLink() is not supported by the loadlab runner');
  }
  submitForm(): never {
    throw new Error('Response.submitForm() is not supported by the loadlab runner');
  }
}
