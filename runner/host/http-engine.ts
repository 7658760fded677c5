// The main-thread side of a VU's HTTP: one connection pool per VU (go-connection-pool.ts: k6 gives
// every VU its own transport, so keep-alive connections are never shared between VUs), k6's timing
// breakdown measured from undici's handler callbacks and diagnostics channels, redirects followed
// hop by hop (each hop is its own http_reqs sample in k6), a per-VU cookie jar, and bytes counted on
// the sockets.
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import net, { type Socket } from 'node:net';
import tls, { type TLSSocket } from 'node:tls';
import { setFlagsFromString } from 'node:v8';
import type { buildConnector, Dispatcher } from 'undici';
import {
  ZERO_TIMINGS,
  type HopTimings,
  type WireHop,
  type WireRequest,
  type WireResponse,
} from '../bridge/protocol.js';
import { httpTimingValues } from '@loadlab/k6-format/http-timings';
import { measuredMs } from '@loadlab/k6-format/duration';
import { nowMs } from '../bridge/clock.js';
import { CookieJar } from './cookie-jar.js';
import { HTTP_ERROR_CODE, statusErrorCode } from '../bridge/http-error-codes.js';
import { hasControlChar, refuseUrl, resolveLocation, type UrlRefusal } from './go-url.js';
import { goHttpUrl, type GoHttpUrl } from './go-url-string.js';
import { writeGoHeads } from './go-request-head.js';
import { digestAuthorization, parseDigestChallenge } from './digest-auth.js';
import { codingsToUndo, decodeBody, type Decoded } from './content-encoding.js';
import { runResolver } from './dns-resolver.js';
import { runHosts } from './hosts-option.js';
import { runBlocklists } from './blocklists.js';
import { withoutPassword } from '../bridge/url-credentials.js';
import { systemRootsContext } from './system-roots.js';
import { goTlsError, verifyAsGo } from './tls-errors.js';
import { statusLineRefusal } from './go-status-line.js';
import { GoConnectionPool, type Connection, type IdleLimits } from './go-connection-pool.js';

/**
 * undici parses responses with llhttp, WebAssembly. At V8's default tiering budget, V8 optimises its
 * 34 KB parse function with TurboFan after 2-6 responses: 110-350 ms of a core on a background
 * thread, which a short run's process then waits for as it exits (Node drains V8's background jobs
 * first). The optimised parser saved nothing measurable per request on loopback (54-68 us either
 * way, the JavaScript around it dominates), so the budget is raised: the optimisation now comes after
 * 200-300 responses, which a short run never makes. Set before the first connection compiles llhttp.
 */
setFlagsFromString('--wasm-tiering-budget=1000000000');

interface SocketInfo {
  connectMs: number;
  tlsMs: number;
  used: boolean;
  lastWritten: number;
  lastRead: number;
  /** The TCP socket under a TLS one: k6 counts bytes on the wire, encrypted. */
  raw: Socket;
  /** What the connection read for the current answer until its head was complete (go-status-line.ts). */
  headRead?: Buffer[];
}

/** Go's http.Transport reads at most 10 MiB of response headers (MaxResponseHeaderBytes unset). */
const GO_MAX_RESPONSE_HEADER_BYTES = 10 << 20;

/** Go's http.Transport reads at most 5 informational answers before it gives up on a request. */
const GO_MAX_1XX_RESPONSES = 5;
const TOO_MANY_1XX = 'net/http: too many 1xx informational responses';

/** k6's dialer gives a TCP connect 30 s (its net.Dialer Timeout); the TLS handshake has only the request's timeout. */
const CONNECT_TIMEOUT_MS = 30_000;
const socketInfo = new WeakMap<Socket, SocketInfo>();

/** undici calls handler.onConnect and then publishes sendHeaders synchronously: this links them. */
let connectingHandler: HopHandler | undefined;
diagnosticsChannel.subscribe('undici:client:sendHeaders', (msg) => {
  const { socket } = msg as { socket: Socket };
  const h = connectingHandler;
  connectingHandler = undefined;
  if (h) h.attachSocket(socket);
});

const STATUS_TEXT_FALLBACK = 'Unknown';

/** An http(s) URL as the engine uses it: Node's reading (to connect, for the cookie jar) and Go's. */
interface UrlReading {
  parsed: URL;
  /** Go's reading (go-url-string.ts); undefined for a form only Node's reading can place. */
  go: GoHttpUrl | undefined;
  /** The request line's target: Go's RequestURI(), else Node's path and query. */
  target: string;
}

/**
 * VUs request the same few URLs over and over: each is read once (the URL objects are only read,
 * by undici's origin and the cookie jar). A refusal is the error k6 reports for a URL it cannot use.
 */
const urlReadings = new Map<string, UrlReading | UrlRefusal>();
const URL_READINGS_MAX = 1000;

function readUrl(url: string): UrlReading | UrlRefusal {
  let reading = urlReadings.get(url);
  if (reading === undefined) {
    reading = readUrlNow(url);
    if (urlReadings.size >= URL_READINGS_MAX) urlReadings.clear();
    urlReadings.set(url, reading);
  }
  return reading;
}

function readUrlNow(url: string): UrlReading | UrlRefusal {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return refuseUrl(url);
  }
  // Node drops tabs and newlines from a URL where Go refuses control characters.
  if ((parsed.protocol !== 'http:' && parsed.protocol !== 'https:') || hasControlChar(url))
    return refuseUrl(url);
  const go = goHttpUrl(url);
  if (go && 'code' in go) return go;
  return { parsed, go, target: go ? go.requestTarget : parsed.pathname + parsed.search };
}

class HopHandler implements Dispatcher.DispatchHandler {
  t0 = performance.now();
  tConn = 0;
  tSent = 0;
  tFirstByte = 0;
  tDone = 0;
  status = 0;
  statusText = '';
  /** Raw header names and values, alternating (one flat array clones cheaper than pairs). */
  headers: string[] = [];
  chunks: Buffer[] = [];
  socket: Socket | undefined;
  connectMs = 0;
  tlsMs = 0;
  abort: ((err?: Error) => void) | undefined;
  constructor(
    private readonly discard: boolean,
    private readonly done: (err: Error | null) => void,
  ) {}
  /** Ended already (its timeout passed before undici gave it a connection): later calls change nothing. */
  private ended = false;
  onConnect(abort: (err?: Error) => void): void {
    if (this.ended) {
      abort(new Error('request timeout'));
      return;
    }
    this.abort = abort;
    this.tConn = performance.now();
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- handed to the sendHeaders subscriber
    connectingHandler = this;
  }
  /** `local->remote` of its connection, as Go's net.OpError names a read's socket (kept: a reset socket forgets it). */
  ends = '';
  attachSocket(socket: Socket): void {
    this.socket = socket;
    this.ends = `${socket.localAddress}:${socket.localPort}->${socket.remoteAddress}:${socket.remotePort}`;
    const info = socketInfo.get(socket);
    if (info) info.headRead = [];
    if (info && !info.used) {
      // The connection was dialed for this request: its dial time is this request's connecting time.
      info.used = true;
      this.connectMs = info.connectMs;
      this.tlsMs = info.tlsMs;
    }
  }
  onRequestSent(): void {
    this.tSent = performance.now();
  }
  /** Informational (1xx) answers so far: Go's client reads at most 5 before the final one. */
  private informational = 0;
  onHeaders(status: number, rawHeaders: Buffer[], _resume: () => void, statusText: string): boolean {
    if (status >= 100 && status <= 199 && status !== 101) {
      // Go's client drops their headers; an endless stream of them fails the request at the 6th.
      if (++this.informational > GO_MAX_1XX_RESPONSES) {
        this.abort?.(Object.assign(new Error(TOO_MANY_1XX), { code: 'LOADLAB_TOO_MANY_1XX' }));
        return false;
      }
      return true;
    }
    this.tFirstByte = performance.now();
    const info = this.socket && socketInfo.get(this.socket);
    if (info) info.headRead = undefined;
    if (!this.tSent) this.tSent = this.tFirstByte;
    this.status = status;
    this.statusText = statusText;
    for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
      this.headers.push(String(rawHeaders[i]), String(rawHeaders[i + 1]));
    }
    return true;
  }
  onData(chunk: Buffer): boolean {
    if (!this.discard) this.chunks.push(chunk);
    return true;
  }
  onComplete(): void {
    this.end(null);
  }
  onError(err: Error): void {
    this.end(err);
  }
  /** Ends the hop now, whatever undici does later (the timeout of a request still resolving or dialing). */
  end(err: Error | null): void {
    if (this.ended) return;
    this.ended = true;
    this.tDone = performance.now();
    this.done(err);
  }
  timings(): HopTimings {
    if (!this.tFirstByte) return ZERO_TIMINGS;
    // k6: blocked = waiting for a connection (incl. dialing), sending = headers+body written,
    // waiting = time to first byte, receiving = the rest of the body.
    // Each span in whole nanoseconds, as Go's time.Duration: duration is their sum, as k6 adds them.
    const gotConn = this.tConn;
    const blocked = measuredMs(Math.max(0, gotConn - this.t0));
    const sending = measuredMs(Math.max(0, this.tSent - gotConn));
    const waiting = measuredMs(Math.max(0, this.tFirstByte - this.tSent));
    const receiving = measuredMs(Math.max(0, this.tDone - this.tFirstByte));
    return httpTimingValues({
      duration: measuredMs(sending + waiting + receiving),
      blocked,
      looking_up: 0,
      connecting: this.connectMs,
      tls_handshaking: this.tlsMs,
      sending,
      waiting,
      receiving,
    });
  }
}

/** A request with nothing set but its method, URL and body (a 5 s timeout): for the engine's own exchanges. */
export function bareRequest(method: string, url: string, body: string | null = null): WireRequest {
  return {
    id: 0,
    method,
    url,
    headers: [],
    body,
    timeoutMs: 5_000,
    maxRedirects: 0,
    cookies: [],
    responseType: 'text',
    nameTag: undefined,
    userTags: undefined,
    expect: undefined,
    jar: 0,
    digest: false,
  };
}

export interface HttpEngineOptions {
  insecureSkipTLSVerify?: boolean;
  userAgent?: string;
  /** k6's noConnectionReuse: a connection per request, each asked to close. */
  noConnectionReuse?: boolean;
  /** How many connections stay open idle (k6's batch and batchPerHost options): k6's defaults if unset. */
  idleLimits?: IdleLimits;
}

/** A dial the options refused (blacklistIPs), with k6's error, code and Go's words for the log line. */
class DialRefusal extends Error {
  constructor(readonly refusal: { error: string; code: number; detail: string }) {
    super(refusal.detail);
  }
}

/**
 * Go's words for a failed dial, which name the address dialled (the name's answer, or the hosts
 * option's), not the URL's host: `dial tcp 127.0.0.1:5098: connect: connection refused`.
 */
function dialDetail(err: Error, why: string): { detail: string } | Record<string, never> {
  const where = [err, err.cause].find(
    (e): e is { address: string; port: number } =>
      typeof (e as { address?: unknown } | undefined)?.address === 'string' &&
      typeof (e as { port?: unknown }).port === 'number',
  );
  if (!where) return {};
  const host = where.address.includes(':') ? `[${where.address}]` : where.address;
  return { detail: `dial tcp ${host}:${where.port}: ${why}` };
}

/** Maps a Node/undici network error onto k6's error string and code (lib/netext/httpext/error_codes.go). */
export function classifyError(err: Error & { code?: string }): {
  error: string;
  code: number;
  detail?: string;
} {
  if (err instanceof DialRefusal) return { ...err.refusal };
  const cause = err.cause as { code?: string; syscall?: string } | undefined;
  const code = err.code ?? cause?.code ?? '';
  // Go's net.OpError names the operation that failed (k6 keeps it): Node's error its syscall.
  const op = (err as { syscall?: string }).syscall ?? cause?.syscall;
  const tlsRefusal = goTlsError(err);
  if (tlsRefusal) return tlsRefusal;
  switch (code) {
    case 'ECONNREFUSED':
      return {
        error: 'dial: connection refused',
        code: HTTP_ERROR_CODE.tcpDialRefused,
        ...dialDetail(err, 'connect: connection refused'),
      };
    case 'ECONNRESET':
      return {
        error: `${op === 'write' ? 'write' : 'read'}: connection reset by peer`,
        code: HTTP_ERROR_CODE.tcpResetByPeer,
      };
    case 'EPIPE':
      // Only a write meets a closed pipe.
      return { error: 'write: broken pipe', code: HTTP_ERROR_CODE.tcpBrokenPipe };
    case 'ENOTFOUND': {
      const goDetail = (err as { goDetail?: unknown }).goDetail;
      return {
        error: 'lookup: no such host',
        code: HTTP_ERROR_CODE.dnsNoSuchHost,
        ...(typeof goDetail === 'string' ? { detail: goDetail } : {}),
      };
    }
    case 'EAI_AGAIN':
      return { error: 'lookup: temporary failure', code: HTTP_ERROR_CODE.defaultDns };
    case 'UND_ERR_CONNECT_TIMEOUT':
      return {
        error: 'dial: i/o timeout',
        code: HTTP_ERROR_CODE.tcpDialTimeout,
        ...dialDetail(err, 'i/o timeout'),
      };
    case 'UND_ERR_HEADERS_TIMEOUT':
    case 'UND_ERR_BODY_TIMEOUT':
    case 'LOADLAB_TIMEOUT':
      return { error: 'request timeout', code: HTTP_ERROR_CODE.requestTimeout };
    case 'UND_ERR_SOCKET':
      // The connection closed before any answer: Go's client reads EOF.
      if (err.message === 'other side closed') return { error: 'EOF', code: HTTP_ERROR_CODE.default };
      return { error: err.message, code: HTTP_ERROR_CODE.default };
    case 'LOADLAB_TOO_MANY_1XX':
      return { error: TOO_MANY_1XX, code: HTTP_ERROR_CODE.default };
    case 'UND_ERR_HEADERS_OVERFLOW':
      return {
        error: `net/http: server response headers exceeded ${GO_MAX_RESPONSE_HEADER_BYTES} bytes; aborted`,
        code: HTTP_ERROR_CODE.default,
      };
    case 'ERR_INVALID_URL':
    case 'LOADLAB_BAD_URL':
      return { error: err.message, code: HTTP_ERROR_CODE.invalidUrl };
    default:
      if (/certificate|tls|ssl/i.test(err.message))
        return { error: `tls: ${err.message}`, code: HTTP_ERROR_CODE.defaultTls };
      if (code.startsWith('E')) return { error: `dial: ${err.message}`, code: HTTP_ERROR_CODE.defaultTcp };
      return { error: err.message, code: HTTP_ERROR_CODE.default };
  }
}

export class HttpEngine {
  private readonly connections: GoConnectionPool;
  /** The VU's jar (http.cookieJar(), emptied every iteration). */
  readonly jar = new CookieJar();
  /** Jars the script made (`new http.CookieJar()`), by the id the VU gave each; created on first use. */
  private readonly scriptJars = new Map<number, CookieJar>();
  private sent = 0;
  private received = 0;
  private readonly inflight = new Set<HopHandler>();
  private readonly sockets = new Set<Socket>();

  constructor(private readonly opts: HttpEngineOptions = {}) {
    this.connections = new GoConnectionPool(
      {
        keepAliveTimeout: 60_000,
        // k6 sets no limit of its own: Go's Transport default holds (undici's is 16 KiB).
        maxHeaderSize: GO_MAX_RESPONSE_HEADER_BYTES,
      },
      (connectOpts, cb) => this.dial(connectOpts, cb),
      opts.idleLimits,
    );
  }

  /**
   * Our own connector (instead of undici's) so TCP connect and TLS handshake are timed apart, as k6's
   * http_req_connecting and http_req_tls_handshaking are, and bytes are counted on the raw TCP socket.
   */
  private dial(o: buildConnector.Options, cb: buildConnector.Callback): void {
    const hostname = bareHost(o.hostname);
    const mapped = runHosts?.remoteFor(hostname, dialPort(o));
    if (mapped) {
      // An address k6's net.ParseIP refused: k6 v1.3 then reached the local host (measured).
      this.connectUnlessBlacklisted(mapped.ip ?? '127.0.0.1', { ...o, port: String(mapped.port) }, cb);
      return;
    }
    runResolver.resolve(hostname).then(
      (ip) => this.connectUnlessBlacklisted(ip, o, cb),
      (err: Error) => cb(err, null),
    );
  }

  /**
   * The blockHostnames option, checked on the name as written (`written`: host[:port]) before any
   * lookup, as k6's dialler checks it: a failed hop, or undefined.
   */
  private blockedHop(method: string, url: string, headers: string[], written: string): WireHop | undefined {
    const blocklist = runBlocklists.hostnames;
    if (!blocklist) return undefined;
    const hostname = written.startsWith('[')
      ? written.slice(1, written.indexOf(']'))
      : written.replace(/:\d*$/, '');
    const pattern = blocklist.blocking(hostname);
    if (pattern === undefined) return undefined;
    const hop = failedHop(method, url, headers, {
      error: 'hostname is blocked',
      code: HTTP_ERROR_CODE.blockedHostname,
    });
    hop.bodyError = `${failedRequest(method, url)}: hostname (${hostname}) is in a blocked pattern (${pattern})`;
    return hop;
  }

  /**
   * Closes the VU's connections, all idle between its blocking calls (Go's CloseIdleConnections,
   * which k6 calls after each iteration with noVUConnectionReuse); resolves once each has closed, so
   * that undici dials anew instead of writing to one it has not yet seen close.
   */
  async closeIdleConnections(): Promise<void> {
    const closing = [...this.sockets].map(
      (socket) =>
        new Promise<void>((resolve) =>
          socket.destroyed ? resolve() : socket.once('close', () => resolve()),
        ),
    );
    for (const socket of this.sockets) {
      this.account(socket);
      socket.destroy();
    }
    await Promise.all(closing);
  }

  /** The blacklistIPs option, checked on the address about to be dialled, as k6's dialler checks it. */
  private connectUnlessBlacklisted(ip: string, o: buildConnector.Options, cb: buildConnector.Callback): void {
    const range = runBlocklists.ips?.containing(ip);
    if (range === undefined) {
      this.connect(ip, o, cb);
      return;
    }
    cb(
      new DialRefusal({
        error: 'ip is blacklisted',
        code: HTTP_ERROR_CODE.blacklistedIp,
        detail: `IP (${ip}) is in a blacklisted range (${range})`,
      }),
      null,
    );
  }

  /** TCP (bounded as k6's dialer bounds it), then TLS (bounded only by the request's timeout). */
  private connect(ip: string, o: buildConnector.Options, cb: buildConnector.Callback): void {
    const t0 = performance.now();
    const isTls = o.protocol === 'https:';
    const port = dialPort(o);
    const tcp = net.connect({ host: ip, port, noDelay: true, keepAlive: true });
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      // k6 counts the bytes of a handshake that failed (a refused certificate came over the wire).
      this.sent += tcp.bytesWritten;
      this.received += tcp.bytesRead;
      tcp.destroy();
      cb(err, null);
    };
    const timer = setTimeout(
      () =>
        fail(
          Object.assign(new Error('dial: i/o timeout'), {
            code: 'UND_ERR_CONNECT_TIMEOUT',
            address: ip,
            port,
          }),
        ),
      CONNECT_TIMEOUT_MS,
    );
    const finish = (socket: Socket, connectMs: number, tlsMs: number) => {
      done = true;
      clearTimeout(timer);
      tcp.removeListener('error', fail);
      const info: SocketInfo = { connectMs, tlsMs, used: false, lastWritten: 0, lastRead: 0, raw: tcp };
      socketInfo.set(socket, info);
      // undici reads the socket on 'readable', which keeps precedence: 'data' only sees what it read.
      socket.on('data', (chunk: Buffer) => info.headRead?.push(chunk));
      this.sockets.add(socket);
      writeGoHeads(socket, this.opts.noConnectionReuse === true);
      socket.once('close', () => {
        this.account(socket);
        this.sockets.delete(socket);
      });
      cb(null, socket);
    };
    tcp.once('error', fail);
    tcp.once('connect', () => {
      clearTimeout(timer);
      const connected = performance.now();
      if (!isTls) {
        finish(tcp, measuredMs(connected - t0), 0);
        return;
      }
      const secure = tls.connect({
        socket: tcp,
        // The name Node checks the certificate against too (else 'localhost').
        host: bareHost(o.hostname),
        servername: o.servername ?? (net.isIP(o.hostname) ? undefined : o.hostname),
        // Verified below, in Go's order (names, then chain), unless insecureSkipTLSVerify, against
        // the roots Go trusts.
        rejectUnauthorized: false,
        secureContext: systemRootsContext(),
        ALPNProtocols: ['http/1.1'],
      });
      secure.once('error', fail);
      secure.once('secureConnect', () => {
        secure.removeListener('error', fail);
        const refusal = this.opts.insecureSkipTLSVerify
          ? undefined
          : verifyAsGo(secure, bareHost(o.hostname));
        if (refusal) {
          secure.destroy();
          fail(refusal);
          return;
        }
        finish(secure, measuredMs(connected - t0), measuredMs(performance.now() - connected));
      });
    });
  }

  /** Adds the socket's new bytes since the last look to this VU's totals. */
  private account(socket: Socket): void {
    const info = socketInfo.get(socket);
    if (!info) return;
    const w = info.raw.bytesWritten;
    const r = info.raw.bytesRead;
    this.sent += w - info.lastWritten;
    this.received += r - info.lastRead;
    info.lastWritten = w;
    info.lastRead = r;
  }

  /** A script jar its VU can no longer reach. */
  forgetJar(id: number): void {
    this.scriptJars.delete(id);
  }

  get scriptJarCount(): number {
    return this.scriptJars.size;
  }

  /** The jar with this id (WireRequest.jar). */
  jarFor(id: number): CookieJar {
    if (id === 0) return this.jar;
    let jar = this.scriptJars.get(id);
    if (!jar) this.scriptJars.set(id, (jar = new CookieJar()));
    return jar;
  }

  async request(req: WireRequest): Promise<WireResponse> {
    const hops: WireHop[] = [];
    let method = req.method;
    let url = req.url;
    let body = req.body;
    const digest = req.digest ? digestCredentials(url) : undefined;
    if (digest) url = digest.url;
    for (let redirects = 0; ; redirects++) {
      let hop = await this.roundTrip(method, url, req, body, redirects === 0, digest?.basic);
      if (digest && redirects === 0) {
        hop.expected = hop.status === 401;
        const challenge =
          hop.status === 401
            ? parseDigestChallenge(headerValue(hop.headers, 'www-authenticate') ?? '')
            : undefined;
        if (challenge) {
          hop.body = null;
          hops.push(hop);
          const reading = readUrl(url);
          const authorization = digestAuthorization({
            method,
            uri: 'target' in reading ? reading.target : url,
            username: digest.username,
            password: digest.password,
            challenge,
          });
          hop = await this.roundTrip(method, url, req, body, true, authorization);
        }
      }
      hops.push(hop);
      const location = headerValue(hop.headers, 'location');
      const isRedirect = [301, 302, 303, 307, 308].includes(hop.status) && location !== undefined;
      if (!isRedirect || redirects >= req.maxRedirects) break;
      hop.body = null;
      const next = resolveLocation(location, url);
      if ('code' in next) {
        // Go's client gives up with an error and no response: k6 answers status 0 with it, and
        // the 3xx hop, which did go over the network, keeps its samples.
        hops.push(failedHop(method, url, hop.requestHeaders, next, false));
        break;
      }
      url = next.url;
      if (hop.status === 303 || ((hop.status === 301 || hop.status === 302) && method === 'POST')) {
        method = method === 'HEAD' ? 'HEAD' : 'GET';
        body = null;
      }
    }
    for (const s of this.sockets) this.account(s);
    const out: WireResponse = { hops, sent: this.sent, received: this.received };
    this.sent = 0;
    this.received = 0;
    return out;
  }

  private roundTrip(
    method: string,
    url: string,
    req: WireRequest,
    body: string | Uint8Array | null,
    first: boolean,
    authorization?: string,
  ): Promise<WireHop> {
    const reading = readUrl(url);
    if ('code' in reading) {
      // k6 parses the URL before its client sees it: a URL it cannot parse is no request at all.
      const sampled = reading.code !== HTTP_ERROR_CODE.invalidUrl;
      return Promise.resolve(failedHop(method, url, [], reading, sampled));
    }
    const { parsed, go, target } = reading;
    // Go's reading is what the hop shows: Response.url, the tags.
    if (go) url = go.text;
    // Names and values alternating: what undici takes, and what Response.request shows.
    const headers: string[] = [];
    const names = new Set<string>();
    for (let i = 0; i < req.headers.length; i += 2) {
      const name = req.headers[i]!;
      if (!first && name.toLowerCase() === 'authorization') continue;
      headers.push(name, req.headers[i + 1]!);
      names.add(name.toLowerCase());
    }
    if (!names.has('user-agent')) headers.push('User-Agent', this.opts.userAgent ?? 'Grafana k6/1.3.0');
    const jar = this.jarFor(req.jar);
    const cookie = cookieHeader(req.cookies, jar.cookieHeader(parsed));
    if (cookie && !names.has('cookie')) headers.push('Cookie', cookie);
    // Response.request shows the headers before Go's client adds credentials (k6's own request).
    const shownHeaders = headers.slice();
    const blocked = this.blockedHop(method, url, shownHeaders, go?.hostHeader ?? parsed.host);
    if (blocked) return Promise.resolve(blocked);
    if (authorization !== undefined && !names.has('authorization'))
      headers.push('Authorization', authorization);
    // Go's Host is the URL's host as written (LOCALHOST:5099, 127.0.0.1:80); undici would send Node's.
    if (go?.hostHeader !== undefined && go.hostHeader !== parsed.host && !names.has('host'))
      headers.push('Host', go.hostHeader);
    if (parsed.username) {
      const cred = `${decodeURIComponent(parsed.username)}:${decodeURIComponent(parsed.password)}`;
      if (!names.has('authorization'))
        headers.push('Authorization', `Basic ${Buffer.from(cred).toString('base64')}`);
    }
    return new Promise<WireHop>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      let timedOut = false;
      const connection: Connection = this.connections.take(parsed.origin);
      const handler: HopHandler = new HopHandler(req.responseType === 'none', (err) => {
        this.connections.putBack(connection, err ? 'failed' : this.opts.noConnectionReuse ? 'close' : 'read');
        if (timer) clearTimeout(timer);
        this.inflight.delete(handler);
        if (handler.socket) this.account(handler.socket);
        if (err) {
          const e = timedOut ? Object.assign(new Error('request timeout'), { code: 'LOADLAB_TIMEOUT' }) : err;
          const cutShort = handler.status >= 200 ? bodyCutShort(e) : undefined;
          if (cutShort) {
            // Go's client had the answer and failed reading its body: k6 keeps what came, logs the error bare.
            resolve({
              ...failedHop(method, url, shownHeaders, { error: cutShort, code: HTTP_ERROR_CODE.default }),
              timings: handler.timings(),
              remoteIp: handler.socket?.remoteAddress ?? '',
              remotePort: handler.socket?.remotePort ?? 0,
              body: req.responseType === 'none' ? null : bodyAs(req.responseType, handler.chunks),
              bodyError: cutShort,
            });
            return;
          }
          const failure =
            statusLineRefusal(e, handler.socket && socketInfo.get(handler.socket)?.headRead) ??
            classifyError(e);
          // A reset on a connection the request went out on: Go names the read and its socket.
          if (failure.code === HTTP_ERROR_CODE.tcpResetByPeer && handler.ends)
            failure.detail = `read tcp ${handler.ends}: read: connection reset by peer`;
          const hop = failedHop(method, url, shownHeaders, failure);
          // Go's full words where the host knows them better than the VU (a certificate's names).
          if (failure.detail) hop.bodyError = `${failedRequest(method, url)}: ${failure.detail}`;
          resolve(hop);
          return;
        }
        const got = handler.headers;
        for (let i = 0; i < got.length; i += 2) {
          if (got[i]!.toLowerCase() === 'set-cookie') jar.setFromHeader(got[i + 1]!, parsed);
        }
        const remote = handler.socket;
        const status = handler.status;
        // k6 reads no body of a 1xx, 204 or 304 answer: the script sees null.
        const bodiless = (status >= 100 && status <= 199) || status === 204 || status === 304;
        const decoded = req.responseType === 'none' || bodiless ? undefined : decodeWhatCame(handler);
        if (decoded && !decoded.ok) {
          // k6: the request failed (status 0, no headers), its timings and the text decoded so far kept.
          resolve({
            ...failedHop(method, url, shownHeaders, { error: decoded.error, code: decoded.code }),
            timings: handler.timings(),
            remoteIp: remote?.remoteAddress ?? '',
            remotePort: remote?.remotePort ?? 0,
            body: decoded.body === null ? null : bodyAs(req.responseType, [decoded.body]),
            bodyError: decoded.logError,
          });
          return;
        }
        resolve({
          method,
          url,
          status,
          statusText: handler.statusText || STATUS_TEXT_FALLBACK,
          proto: 'HTTP/1.1',
          headers: handler.headers,
          body: req.responseType === 'none' || bodiless ? null : bodyAs(req.responseType, handler.chunks),
          timings: handler.timings(),
          error: '',
          errorCode: statusErrorCode(status),
          remoteIp: remote?.remoteAddress ?? '',
          remotePort: remote?.remotePort ?? 0,
          tlsVersion: tlsVersionOf(remote),
          requestHeaders: shownHeaders,
          time: nowMs(),
          sampled: true,
        });
      });
      this.inflight.add(handler);
      if (req.timeoutMs > 0) {
        // The timeout covers the name's lookup and the dial too, as the request's context does in Go.
        timer = setTimeout(() => {
          timedOut = true;
          if (handler.abort) handler.abort(new Error('request timeout'));
          else handler.end(new Error('request timeout'));
        }, req.timeoutMs);
      }
      try {
        connection.client.dispatch(
          {
            path: target,
            method,
            headers,
            body: body === null ? null : typeof body === 'string' ? body : Buffer.from(body),
            headersTimeout: 0,
            bodyTimeout: 0,
            // undici closes a connection after every HEAD (against servers that answer one with a
            // body); Go's client keeps it, so k6's next request reuses it. noConnectionReuse (Go's
            // DisableKeepAlives) closes every one.
            ...(this.opts.noConnectionReuse ? { reset: true } : method === 'HEAD' ? { reset: false } : {}),
          },
          handler,
        );
      } catch (err) {
        handler.onError(err as Error);
      }
    });
  }

  /** Aborts what is in flight (interrupt): the answers come back as errors at once. */
  abortAll(): void {
    for (const h of this.inflight) h.abort?.(new Error('request interrupted'));
  }

  async close(): Promise<void> {
    await this.connections.destroy();
  }
}

function tlsVersionOf(socket: Socket | undefined): string {
  const tls = socket as TLSSocket | undefined;
  if (!tls || typeof tls.getProtocol !== 'function') return '';
  const p = tls.getProtocol();
  return p ? p.replace('TLSv', 'tls') : '';
}

/**
 * k6's Cookie header: the request's own cookies first (params.cookies, in order), then the jar's,
 * except those a params cookie with `replace: true` stands for (k6's SetRequestCookies).
 */
function cookieHeader(own: string[], jar: Map<string, string>): string {
  const parts: string[] = [];
  const replaced = new Set<string>();
  for (let i = 0; i < own.length; i += 3) {
    parts.push(`${own[i]!}=${own[i + 1]!}`);
    if (own[i + 2]) replaced.add(own[i]!);
  }
  for (const [k, v] of jar) if (!replaced.has(k)) parts.push(`${k}=${v}`);
  return parts.join('; ');
}

/**
 * A digest request's URL without its credentials (k6 takes them out of the URL it requests and
 * reports), the credentials, and the Basic header Go's client adds from them on the first try.
 */
function digestCredentials(url: string): { url: string; username: string; password: string; basic?: string } {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { url, username: '', password: '' };
  }
  const username = decodeURIComponent(u.username);
  const password = decodeURIComponent(u.password);
  if (!u.username && !u.password) return { url, username, password };
  u.username = '';
  u.password = '';
  const basic = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
  return { url: u.toString(), username, password, basic };
}

/** Go's words for a body that broke off after its answer's head, or undefined for another error. */
function bodyCutShort(err: Error & { code?: string }): string | undefined {
  if (timedOutCodes.has(err.code ?? '')) return undefined;
  if (err.code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return 'unexpected EOF';
  if (err.code === 'UND_ERR_SOCKET' && err.message === 'other side closed') return 'unexpected EOF';
  // undici's parser errors carry no code (its table maps names to numbers only): its words tell.
  if (/\(Invalid character in chunk size\)$/.test(err.message)) return 'invalid byte in chunk length';
  return undefined;
}
const timedOutCodes = new Set(['LOADLAB_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

/** A URL's hostname without an IPv6 literal's brackets. */
/** The port a connection dials: the URL's, else its scheme's. */
function dialPort(o: buildConnector.Options): number {
  return Number(o.port) || (o.protocol === 'https:' ? 443 : 80);
}

function bareHost(hostname: string): string {
  return hostname.replace(/^\[(.*)\]$/, '$1');
}

/** A method as Go's url.Error names it: `Get`, `Post`. */
/** How Go's client names a request that failed: `Get "http://user:***@host/"` (the password masked). */
function failedRequest(method: string, url: string): string {
  return `${goVerb(method)} ${JSON.stringify(withoutPassword(url))}`;
}

function goVerb(method: string): string {
  return method[0] + method.slice(1).toLowerCase();
}

/** The first value of a header (name in lower case) in a flat name/value list. */
function headerValue(headers: string[], name: string): string | undefined {
  for (let i = 0; i < headers.length; i += 2) if (headers[i]!.toLowerCase() === name) return headers[i + 1];
  return undefined;
}

/** The body as the script asked for it: text or bytes. */
function bodyAs(responseType: WireRequest['responseType'], chunks: Buffer[]): string | Uint8Array {
  return responseType === 'text' ? textOf(chunks) : ownBytes(chunks);
}

/**
 * The body with the codings of its Content-Encoding undone as k6 undoes them (the handler's chunks
 * replaced by the decoded body), undefined when there is none to undo, or k6's failure.
 */
function decodeWhatCame(handler: HopHandler): Decoded | undefined {
  const coding = headerValue(handler.headers, 'content-encoding');
  if (codingsToUndo(coding).length === 0) return undefined;
  const decoded = decodeBody(Buffer.concat(handler.chunks), coding);
  if (decoded.ok) handler.chunks = [decoded.body];
  return decoded;
}

/** A text body, decoded as k6 does (UTF-8); one chunk (the usual small body) needs no concat. */
function textOf(chunks: Buffer[]): string {
  if (chunks.length === 0) return '';
  return (chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks)).toString('utf8');
}

/**
 * The body in a buffer of its own size. Node's small Buffers are views into a shared 8 KB pool, and
 * posting a view copies its whole ArrayBuffer: a 2-byte body used to cost an 8 KB copy and allocation.
 */
function ownBytes(chunks: Buffer[]): Uint8Array {
  let size = 0;
  for (const c of chunks) size += c.byteLength;
  const out = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

/** A hop that got no answer (refused, reset, timed out, a bug): status 0 with k6's error and code. */
export function failedHop(
  method: string,
  url: string,
  headers: string[],
  e: { error: string; code: number },
  sampled = true,
): WireHop {
  return {
    method,
    url,
    status: 0,
    statusText: '',
    proto: '',
    headers: [],
    body: null,
    timings: ZERO_TIMINGS,
    error: e.error,
    errorCode: e.code,
    remoteIp: '',
    remotePort: 0,
    tlsVersion: '',
    requestHeaders: headers,
    time: nowMs(),
    sampled,
  };
}
