// `k6/http` (js/modules/k6/http): requests go through the VU's bridge to the main thread; this side
// builds the wire request from k6 params and turns each hop into k6's samples and a Response.
import { withoutPassword } from '../../bridge/url-credentials.js';
import {
  DEFAULT_EXPECTED,
  Hop,
  K6_BATCH_DEFAULTS,
  Res,
  type BatchLimits,
  type JarOp,
  type RequestTuple,
  type ResponseTuple,
} from '../../bridge/protocol.js';
import { HTTP_ERROR_CODE } from '../../bridge/http-error-codes.js';
import { parseDuration } from '@loadlab/k6-format/duration';
import { Response, type ResponseType } from './http-response.js';
import { InterruptSignal, type VuRuntime } from '../api/runtime.js';
import { goError } from '../api/go-error.js';
import { goQueryEscape, goSprint } from '../api/go-values.js';
import { hasFile, httpFile, multipartBody } from './http-multipart.js';

const EXPECTED = Symbol('loadlab.expectedStatuses');
/** What http.expectedStatuses() returns: its ranges, [min, max, ...], judged on the main thread. */
type Expected = { [EXPECTED]: readonly number[] };

/** Form-urlencodes a plain object as k6 does (Go's url.Values.Encode: keys sorted). */
function formEncode(obj: Record<string, unknown>): string {
  const parts: string[] = [];
  for (const k of Object.keys(obj).sort()) {
    const v = obj[k];
    for (const x of Array.isArray(v) ? v : [v])
      parts.push(`${goQueryEscape(k)}=${goQueryEscape(goSprint(x))}`);
  }
  return parts.join('&');
}

/** The detail Go's net/http puts in its error for the common network failures. */
function goErrorText(code: number, error: string, url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return error;
  }
  const hostPort = `${u.hostname}:${u.port || (u.protocol === 'https:' ? '443' : '80')}`;
  if (code === HTTP_ERROR_CODE.tcpDialRefused) return `dial tcp ${hostPort}: connect: connection refused`;
  if (code === HTTP_ERROR_CODE.tcpDialTimeout) return `dial tcp ${hostPort}: i/o timeout`;
  // Go's transport names the connection it dropped (headers over its limit, endless 1xx answers).
  if (
    error.startsWith('net/http: server response headers exceeded') ||
    error === 'net/http: too many 1xx informational responses'
  )
    return `net/http: HTTP/1.x transport connection broken: ${error}`;
  return error;
}

/** k6's maxRedirects when neither the option nor the request's params set it. */
const DEFAULT_MAX_REDIRECTS = 10;

interface Params {
  headers?: Record<string, unknown>;
  tags?: Record<string, unknown>;
  timeout?: string | number;
  responseType?: ResponseType;
  redirects?: number;
  cookies?: Record<string, unknown>;
  auth?: string;
  throw?: boolean;
  responseCallback?: Expected | null;
  compression?: string;
  jar?: unknown;
}

interface UrlTemplate {
  url: string;
  name: string;
}

interface Prepared {
  wire: RequestTuple;
  id: number;
  method: string;
  url: string;
  params: Params;
  requestBody: string;
  responseType: ResponseType;
  /** An async request's tags, those of its call (k6 reads them then): a sync one's are read at its answer. */
  tags?: Record<string, string>;
}

/** Where a script's CookieJar keeps the id of its jar on the main thread. */
const JAR_ID = Symbol('loadlab.jarId');

/** A params.jar's id: a jar k6/http made, else 0, the VU's own (k6/ws and k6/http alike). */
export function jarIdOf(jar: unknown): number {
  return jar && typeof jar === 'object' && JAR_ID in jar ? (jar as { [JAR_ID]: number })[JAR_ID] : 0;
}

export function createHttpModule(rt: VuRuntime): Record<string, unknown> {
  rt.responseCallback = DEFAULT_EXPECTED;
  let nextRequestId = 1;

  function opt<T>(key: string, fallback: T): T {
    const v = rt.testOptions?.[key];
    return v === undefined || v === null ? fallback : (v as T);
  }

  function prepare(method: string, target: unknown, body: unknown, rawParams: unknown): Prepared {
    if (rt.phase === 'init') throw new Error('Making http requests in the init context is not supported');
    rt.checkInterrupted();
    const params = (rawParams && typeof rawParams === 'object' ? rawParams : {}) as Params;
    let url: string;
    let nameTag: string | undefined;
    if (target && typeof target === 'object' && 'url' in target) {
      url = String((target as UrlTemplate).url);
      nameTag = (target as UrlTemplate).name;
    } else {
      url = String(target);
    }
    let userTags: Record<string, string> | undefined;
    if (params.tags && typeof params.tags === 'object') {
      for (const [k, v] of Object.entries(params.tags)) (userTags ??= {})[k] = String(v);
      if (params.tags.name !== undefined) nameTag = String(params.tags.name);
    }
    const headers: string[] = [];
    const lower = new Set<string>();
    for (const [k, v] of Object.entries(params.headers ?? {})) {
      if (v === undefined || v === null) continue;
      headers.push(k, String(v));
      lower.add(k.toLowerCase());
    }
    let wireBody: string | Uint8Array | null = null;
    let requestBody = '';
    if (body !== undefined && body !== null) {
      if (typeof body === 'string') wireBody = body;
      else if (body instanceof ArrayBuffer) wireBody = new Uint8Array(body);
      else if (ArrayBuffer.isView(body))
        wireBody = new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
      else if (typeof body === 'object' && hasFile(body as Record<string, unknown>)) {
        const multipart = multipartBody(body as Record<string, unknown>);
        wireBody = multipart.bytes;
        if (!lower.has('content-type')) headers.push('Content-Type', multipart.contentType);
      } else if (typeof body === 'object') {
        wireBody = formEncode(body as Record<string, unknown>);
        if (!lower.has('content-type')) headers.push('Content-Type', 'application/x-www-form-urlencoded');
      } else wireBody = String(body);
      requestBody = typeof wireBody === 'string' ? wireBody : Buffer.from(wireBody).toString('utf8');
    }
    if (params.auth && params.auth !== 'basic' && params.auth !== 'digest') {
      throw new Error(
        `auth type "${params.auth}" is not supported by the loadlab runner (basic and digest only)`,
      );
    }
    const cookies: string[] = [];
    for (const [k, v] of Object.entries(params.cookies ?? {})) {
      const own =
        v && typeof v === 'object' && 'value' in v ? (v as { value: unknown; replace?: unknown }) : undefined;
      cookies.push(k, String(own ? own.value : v), own?.replace ? '1' : '');
    }
    const timeoutMs = params.timeout !== undefined ? parseDuration(params.timeout, { days: false }) : 60_000;
    const responseType: ResponseType =
      params.responseType ?? (opt('discardResponseBodies', false) ? 'none' : 'text');
    const maxRedirects = params.redirects ?? opt<number>('maxRedirects', DEFAULT_MAX_REDIRECTS);
    // The User-Agent (options.userAgent or k6's) is added by the main thread's engine when absent.
    const id = nextRequestId++;
    const upper = method.toUpperCase();
    const wire: RequestTuple = [
      id,
      upper,
      url,
      headers,
      wireBody,
      timeoutMs,
      maxRedirects,
      cookies,
      responseType,
      nameTag,
      userTags,
      expectedRanges(params.responseCallback),
      jarId(params.jar),
      params.auth === 'digest',
    ];
    return { wire, id, method: upper, url, params, requestBody, responseType };
  }

  /** The ranges the request's samples are judged by (RequestTuple's expect). */
  function expectedRanges(callback: Expected | null | undefined): number[] | null | undefined {
    const ranges = callback === null ? null : callback ? (callback[EXPECTED] ?? null) : rt.responseCallback;
    return ranges === DEFAULT_EXPECTED ? undefined : (ranges as number[] | null);
  }

  function finish(p: Prepared, answer: ResponseTuple): Response {
    const hops = answer[Res.hops];
    const res = new Response(hops[hops.length - 1]!, p.responseType, p.requestBody);
    // k6's Response.url is the URL as the script gave it until an answer or a redirect replaces it
    // with Go's url.URL.String(): a request that failed before either keeps the script's text.
    if (res.status === 0 && res.error && res.error_code !== HTTP_ERROR_CODE.invalidUrl) {
      const previous = hops[hops.length - 2];
      const redirected =
        previous !== undefined &&
        (previous[Hop.status] as number) >= 300 &&
        (previous[Hop.status] as number) <= 399;
      if (!redirected) res.url = p.url;
    }
    warnIfStoppedRedirecting(p, hops);
    // A request the end of the test (abortOnFail, a stop, gracefulStop) cut short is neither
    // sampled nor logged in k6: its iteration ends as interrupted.
    if (res.error) rt.checkInterrupted();
    // The hops' samples are built on the main thread from the answer it keeps (host/http-samples.ts).
    rt.recordHttp(p.id, p.tags);
    if (res.error) {
      // Go's error, as k6 logs it or throws it (a GoError), e.g. Get "http://127.0.0.1:1/x": dial
      // tcp 127.0.0.1:1: connect: connection refused. A URL that could not be parsed never reached
      // the client: its parse error stands alone.
      // An error reading the body (one that does not decode) is not the client's: k6 gives it bare.
      const verb = p.method[0] + p.method.slice(1).toLowerCase();
      const last = hops[hops.length - 1]!;
      const bodyError = last[Hop.bodyError] as string | undefined;
      // Go names the request that failed (a redirect's, after one), as url.URL.String() gives it.
      const failedUrl = last[Hop.url];
      const errorText =
        bodyError ??
        (res.error_code === HTTP_ERROR_CODE.invalidUrl
          ? res.error
          : `${verb} ${JSON.stringify(withoutPassword(failedUrl))}: ${goErrorText(res.error_code, res.error, failedUrl)}`);
      if (p.params.throw ?? opt('throw', false)) {
        throw goError(errorText);
      }
      rt.log('warn', 'Request Failed', { error: errorText });
    }
    return res;
  }

  /**
   * k6 warns when its default redirect limit (no `redirects` param, no maxRedirects option) stopped
   * a chain and the script got the redirection itself.
   */
  function warnIfStoppedRedirecting(p: Prepared, hops: ResponseTuple[Res.hops]): void {
    if (p.params.redirects !== undefined || opt<unknown>('maxRedirects', undefined) !== undefined) return;
    const last = hops[hops.length - 1]!;
    const status = last[Hop.status];
    const redirected = [301, 302, 303, 307, 308].includes(status) && hops.length > DEFAULT_MAX_REDIRECTS;
    if (!redirected || !last[Hop.headers].some((h, i) => i % 2 === 0 && h.toLowerCase() === 'location'))
      return;
    rt.log(
      'warn',
      `Stopped after ${hops.length} redirects and returned the redirection; pass { redirects: n } in request params or set global maxRedirects to silence this`,
      { url: hops[0]![Hop.url] },
    );
  }

  function request(method: string, url: unknown, body?: unknown, params?: unknown): Response {
    const p = prepare(String(method), url, body, params);
    const [answer] = rt.httpSync([p.wire]);
    return finish(p, answer!);
  }

  /** http.asyncRequest's calls waiting for their answer, by call number. */
  const awaiting = new Map<number, (answer: ResponseTuple) => void>();
  rt.onHttpEvent = (event) => awaiting.get(event.call)?.(event.answers[0]!);

  /**
   * The request goes out while the script runs on; the iteration waits for its answer, as k6's
   * event loop waits for the callback it registered.
   */
  function asyncRequest(method: string, url: unknown, body?: unknown, params?: unknown): Promise<Response> {
    let p: Prepared;
    try {
      p = { ...prepare(String(method), url, body, params), tags: rt.baseTags() };
    } catch (err) {
      return Promise.reject(err);
    }
    return new Promise((resolve, reject) => {
      let call = 0;
      const hold = rt.pending.hold(() => awaiting.delete(call));
      call = rt.httpPost([p.wire]);
      awaiting.set(call, (answer) => {
        awaiting.delete(call);
        rt.countTraffic(answer[Res.sent], answer[Res.received]);
        hold.run(() => {
          try {
            resolve(finish(p, answer));
          } catch (err) {
            // An answer cut short by the end of the test ends the iteration, as a sync one does.
            if (err instanceof InterruptSignal) throw err;
            // k6 rejects with the Go error itself, which a script prints as its bare message.
            (err as Error).name = '';
            reject(err);
          }
        });
        hold.release();
      });
    });
  }

  type BatchItem =
    string | UrlTemplate | unknown[] | { method?: string; url: unknown; body?: unknown; params?: unknown };
  function batch(reqs: BatchItem[] | Record<string, BatchItem>): unknown {
    const entries: [string, BatchItem][] = Array.isArray(reqs)
      ? reqs.map((r, i) => [String(i), r])
      : Object.entries(reqs ?? {});
    const prepared = entries.map(([, r]) => {
      if (typeof r === 'string') return prepare('GET', r, null, undefined);
      if (Array.isArray(r)) return prepare(String(r[0]), r[1], r[2], r[3]);
      if (r && typeof r === 'object' && 'url' in r && !('name' in r && Object.keys(r).length === 2)) {
        const o = r as { method?: string; url: unknown; body?: unknown; params?: unknown };
        return prepare(o.method ?? 'GET', o.url, o.body, o.params);
      }
      return prepare('GET', r, null, undefined);
    });
    // k6's defaults when neither option is set (its flags' defaults): 20 requests at once, 6 per host.
    const limits: BatchLimits = [
      opt<number>('batch', K6_BATCH_DEFAULTS[0]),
      opt<number>('batchPerHost', K6_BATCH_DEFAULTS[1]),
    ];
    const answers = rt.httpSync(
      prepared.map((p) => p.wire),
      limits,
    );
    const results = prepared.map((p, i) => finish(p, answers[i]!));
    if (Array.isArray(reqs)) return results;
    const out: Record<string, Response> = {};
    entries.forEach(([k], i) => (out[k] = results[i]!));
    return out;
  }

  function expectedStatuses(...args: unknown[]): Expected {
    const ranges: number[] = [];
    for (const a of args) {
      if (typeof a === 'number' && Number.isInteger(a)) ranges.push(a, a);
      else if (a && typeof a === 'object' && 'min' in a && 'max' in a) {
        const { min, max } = a as { min: number; max: number };
        ranges.push(Number(min), Number(max));
      } else {
        throw new Error('expectedStatuses() arguments must be integers or {min, max} objects');
      }
    }
    return { [EXPECTED]: ranges };
  }

  function setResponseCallback(cb: Expected | null): void {
    if (cb === null) rt.responseCallback = null;
    else if (cb && typeof cb === 'object' && EXPECTED in cb) rt.responseCallback = cb[EXPECTED];
    else throw new Error('setResponseCallback() takes the result of http.expectedStatuses() or null');
  }

  /** http.url`...${x}`: the `name` tag keeps `${}` in place of each value. */
  function url(strings: TemplateStringsArray, ...values: unknown[]): UrlTemplate {
    let u = strings[0] ?? '';
    let n = strings[0] ?? '';
    values.forEach((v, i) => {
      u += String(v) + (strings[i + 1] ?? '');
      n += '${}' + (strings[i + 1] ?? '');
    });
    return { url: u, name: n };
  }

  /**
   * A cookie jar of this VU. Jars live on the main thread with the HTTP client; the script's object
   * holds the jar's id (0: the VU's own, which k6 empties every iteration).
   */
  const urlOf = (u: unknown) =>
    u && typeof u === 'object' && 'url' in u ? String((u as UrlTemplate).url) : String(u);
  const callJar = (op: JarOp) => {
    const r = rt.jarSync(op);
    if (!r.ok) throw new Error(r.error);
    return r;
  };
  let nextJarId = 1;
  const jarWithId = (id: number): JarMethods =>
    Object.defineProperty(Object.create(JarMethods.prototype), JAR_ID, { value: id }) as JarMethods;
  class JarMethods {
    declare [JAR_ID]: number;
    cookiesForURL(url: unknown): Record<string, string[]> {
      return callJar({ id: this[JAR_ID], op: 'get', url: urlOf(url) }).cookies ?? {};
    }
    set(url: unknown, name: unknown, value: unknown, opts?: Record<string, unknown>): void {
      const op = {
        id: this[JAR_ID],
        op: 'set',
        url: urlOf(url),
        name: String(name),
        value: String(value),
      } as const;
      callJar(opts ? { ...op, opts } : op);
    }
    clear(url: unknown): void {
      callJar({ id: this[JAR_ID], op: 'clear', url: urlOf(url) });
    }
    delete(url: unknown, name: unknown): void {
      callJar({ id: this[JAR_ID], op: 'delete', url: urlOf(url), name: String(name) });
    }
  }
  // A jar lives on the main thread until the script can no longer reach its object: then the main
  // thread is told to drop it (a test that makes a jar per iteration would otherwise keep them all).
  const unreachableJars = new FinalizationRegistry<number>((id) => rt.forgetJar(id));
  /**
   * `new http.CookieJar()`. In k6 the object it makes is a Go value: not an instance of the
   * constructor (`instanceof` is false), which this keeps.
   */
  function CookieJar(): JarMethods {
    const id = nextJarId++;
    const jar = jarWithId(id);
    unreachableJars.register(jar, id);
    rt.awaitingCollection(1);
    return jar;
  }
  const vuJar = jarWithId(0);
  const jarId = jarIdOf;

  /** http.cookieJar(): the VU's own jar. */
  const cookieJar = (): JarMethods => vuJar;

  const mod = {
    cookieJar,
    request,
    get: (u: unknown, params?: unknown) => request('GET', u, null, params),
    head: (u: unknown, params?: unknown) => request('HEAD', u, null, params),
    post: (u: unknown, body?: unknown, params?: unknown) => request('POST', u, body, params),
    put: (u: unknown, body?: unknown, params?: unknown) => request('PUT', u, body, params),
    patch: (u: unknown, body?: unknown, params?: unknown) => request('PATCH', u, body, params),
    del: (u: unknown, body?: unknown, params?: unknown) => request('DELETE', u, body, params),
    options: (u: unknown, body?: unknown, params?: unknown) => request('OPTIONS', u, body, params),
    asyncRequest,
    batch,
    expectedStatuses,
    setResponseCallback,
    url,
    file: httpFile,
    CookieJar,
    OCSP_STATUS_GOOD: 'good',
    OCSP_STATUS_REVOKED: 'revoked',
    OCSP_STATUS_SERVER_FAILED: 'server_failed',
    OCSP_STATUS_UNKNOWN: 'unknown',
    OCSP_REASON_UNSPECIFIED: 'unspecified',
    OCSP_REASON_KEY_COMPROMISE: 'key_compromise',
    OCSP_REASON_CA_COMPROMISE: 'ca_compromise',
    OCSP_REASON_AFFILIATION_CHANGED: 'affiliation_changed',
    OCSP_REASON_SUPERSEDED: 'superseded',
    OCSP_REASON_CESSATION_OF_OPERATION: 'cessation_of_operation',
    OCSP_REASON_CERTIFICATE_HOLD: 'certificate_hold',
    OCSP_REASON_REMOVE_FROM_CRL: 'remove_from_crl',
    OCSP_REASON_PRIVILEGE_WITHDRAWN: 'privilege_withdrawn',
    OCSP_REASON_AA_COMPROMISE: 'aa_compromise',
    TLS_1_0: 'tls1.0',
    TLS_1_1: 'tls1.1',
    TLS_1_2: 'tls1.2',
    TLS_1_3: 'tls1.3',
  };
  return mod;
}
