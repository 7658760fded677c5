// browser_http_req_duration / _failed and browser_data_sent / _received for every request a page
// makes, with k6's tag set (internal/js/modules/k6/browser/k6ext/metrics.go): method, name, url,
// proto, status, resource_type (CDP spelling), from_cache, from_prefetch_cache, from_service_worker.
import type { BrowserContext, Page, Request } from 'playwright-core';
import { cdpSession } from './k6-api.js';
import type { Sample, VuModuleEnv } from '../../contracts.js';

/** Playwright reports resource types in lower case; k6 uses the Chrome DevTools Protocol names. */
const CDP_RESOURCE_TYPES: Record<string, string> = {
  document: 'Document',
  stylesheet: 'Stylesheet',
  image: 'Image',
  media: 'Media',
  font: 'Font',
  script: 'Script',
  texttrack: 'TextTrack',
  xhr: 'XHR',
  fetch: 'Fetch',
  prefetch: 'Prefetch',
  eventsource: 'EventSource',
  websocket: 'WebSocket',
  manifest: 'Manifest',
  ping: 'Ping',
  other: 'Other',
};

/** Chromium's own request for a page's icon (no Playwright event or route reports it). */
export function isFavicon(url: string): boolean {
  try {
    return new URL(url).pathname === '/favicon.ico';
  } catch {
    return false;
  }
}

export function cdpResourceType(playwrightType: string): string {
  return CDP_RESOURCE_TYPES[playwrightType] ?? 'Other';
}

/** Follows a context's requests and emits their samples; `settle()` waits for the pending ones. */
export class NetworkMetrics {
  private readonly pending = new Set<Promise<void>>();

  constructor(
    private readonly env: VuModuleEnv,
    context: BrowserContext,
  ) {
    context.on('requestfinished', (req) => this.track(this.record(req, false)));
    context.on('requestfailed', (req) => this.track(this.record(req, true)));
  }

  /**
   * Chromium's own request for `/favicon.ico` never reaches Playwright's request events, but k6 sees
   * it on the page's CDP session and measures it (type Other, usually a 404 that counts as failed):
   * follow it on a CDP session of our own. Call before the page's first navigation.
   */
  async watchFavicon(page: Page): Promise<void> {
    const session = await cdpSession(page);
    const open = new Map<string, { started: number; req: Omit<FinishedRequest, 'duration'> }>();
    session.on('Network.requestWillBeSent', (e) => {
      if (e.type !== 'Other' || !isFavicon(e.request.url)) return;
      open.set(e.requestId, {
        started: e.timestamp,
        req: {
          method: e.request.method,
          url: e.request.url,
          resourceType: 'Other',
          requestHeaders: e.request.headers as Record<string, string>,
          requestBodySize: 0,
          status: 0,
          fromServiceWorker: false,
          response: undefined,
          responseBodySize: 0,
        },
      });
    });
    const headersAt = new Map<string, number>();
    session.on('Network.responseReceived', (e) => {
      const r = open.get(e.requestId);
      if (!r) return;
      headersAt.set(e.requestId, e.timestamp);
      r.req.status = e.response.status;
      r.req.fromServiceWorker = e.response.fromServiceWorker ?? false;
      r.req.response = {
        statusText: e.response.statusText,
        headers: e.response.headers as Record<string, string>,
      };
    });
    const done = (requestId: string, timestamp: number, failed: boolean) => {
      const r = open.get(requestId);
      if (!r) return;
      open.delete(requestId);
      const end = headersAt.get(requestId) ?? timestamp; // CDP timestamps are in seconds
      headersAt.delete(requestId);
      this.track(
        (async () => {
          if (!failed && r.req.response) {
            const body = await session
              .send('Network.getResponseBody', { requestId })
              .catch(() => ({ body: '', base64Encoded: false }));
            r.req.responseBodySize = Buffer.byteLength(body.body, body.base64Encoded ? 'base64' : 'utf8');
          }
          this.emitSamples({ ...r.req, duration: (end - r.started) * 1000 }, failed);
        })(),
      );
    };
    session.on('Network.loadingFinished', (e) => done(e.requestId, e.timestamp, false));
    session.on('Network.loadingFailed', (e) => done(e.requestId, e.timestamp, true));
    await session.send('Network.enable');
  }

  /** Resolves once every request seen so far has its samples emitted (call before closing). */
  async settle(): Promise<void> {
    while (this.pending.size > 0) await Promise.allSettled([...this.pending]);
  }

  private track(p: Promise<void>): void {
    this.pending.add(p);
    void p.finally(() => this.pending.delete(p));
  }

  private async record(req: Request, failedAtNetwork: boolean): Promise<void> {
    const url = req.url();
    if (url.startsWith('data:') || url.startsWith('blob:')) return; // no network involved
    const response = failedAtNetwork ? null : await req.response().catch(() => null);
    const timing = req.timing();
    const status = response?.status() ?? 0;
    // k6 times a request from its start to its response's headers; -1 when the browser could not say.
    const duration =
      timing.responseStart >= 0 ? timing.responseStart : Math.max(0, Date.now() - timing.startTime);
    const body =
      response && !(status >= 300 && status <= 399) ? await response.body().catch(() => null) : null;
    // k6 counts the bytes of every request before this one in its redirect chain again as this one
    // starts (onRequest's loop over the chain): a request redirected n times sends n + 1 samples.
    for (let from = req.redirectedFrom(); from; from = from.redirectedFrom()) {
      this.env.emit([this.sentSample(sentRequest(from), Date.now())]);
    }
    this.emitSamples(
      {
        ...sentRequest(req),
        status,
        fromServiceWorker: response?.fromServiceWorker() ?? false,
        response: response ? { statusText: response.statusText(), headers: response.headers() } : undefined,
        responseBodySize: body?.length ?? 0,
        duration,
      },
      failedAtNetwork,
    );
  }

  /**
   * The samples of one request, with k6's tags and k6's sizes: the bytes it sent, and, unless the
   * network failed it (CDP's loadingFailed: k6's onLoadingFailed measures no response), its duration,
   * failed rate and bytes received.
   */
  emitSamples(r: FinishedRequest, failedAtNetwork = false): void {
    const tags: Record<string, string> = {
      ...this.env.currentTags(),
      method: r.method,
      name: r.url,
      url: r.url,
      status: String(r.status),
      resource_type: r.resourceType,
      from_cache: 'false',
      from_prefetch_cache: 'false',
      from_service_worker: String(r.fromServiceWorker),
    };
    // Chromium speaks HTTP/1.1 on cleartext; for TLS the negotiated protocol is not exposed.
    if (r.url.startsWith('http:')) tags.proto = 'http/1.1';
    const time = Date.now();
    const sent = this.sentSample(r, time);
    if (failedAtNetwork) {
      this.env.emit([sent]);
      return;
    }
    const received = r.response
      ? responseHeadersSize(r.response.statusText, r.response.headers) + r.responseBodySize
      : 0;
    this.env.emit([
      { metric: 'browser_http_req_duration', type: 'trend', contains: 'time', value: r.duration, tags, time },
      {
        metric: 'browser_http_req_failed',
        type: 'rate',
        contains: 'default',
        value: r.status === 0 || r.status >= 400 ? 1 : 0,
        tags,
        time,
      },
      sent,
      { metric: 'browser_data_received', type: 'counter', contains: 'data', value: received, tags, time },
    ]);
  }

  /** browser_data_sent for a request, tagged with its request side only, as k6 tags it. */
  private sentSample(r: SentRequest, time: number): Sample {
    return {
      metric: 'browser_data_sent',
      type: 'counter',
      contains: 'data',
      value: requestHeadersSize(r.method, r.url, r.requestHeaders) + r.requestBodySize,
      tags: {
        ...this.env.currentTags(),
        method: r.method,
        name: r.url,
        url: r.url,
        resource_type: r.resourceType,
      },
      time,
    };
  }
}

/** The request side of a request: what k6's browser_data_sent measures. */
interface SentRequest {
  method: string;
  url: string;
  resourceType: string;
  requestHeaders: Record<string, string>;
  requestBodySize: number;
}

function sentRequest(req: Request): SentRequest {
  return {
    method: req.method(),
    url: req.url(),
    resourceType: cdpResourceType(req.resourceType()),
    requestHeaders: req.headers(),
    requestBodySize: req.postDataBuffer()?.length ?? 0,
  };
}

/** What NetworkMetrics needs of a finished request, from Playwright or from CDP events. */
export interface FinishedRequest extends SentRequest {
  status: number;
  fromServiceWorker: boolean;
  response: { statusText: string; headers: Record<string, string> } | undefined;
  responseBodySize: number;
  duration: number;
}

function headerLines(headers: Record<string, string>): number {
  let n = 0;
  for (const [name, value] of Object.entries(headers)) n += name.length + value.length + 4; // ': ' + CRLF
  return n;
}

/**
 * k6's request size (common/http.go): a request line made of the method, the URL's path (no query)
 * and an 8-byte version, plus the headers Chromium announced for the request.
 */
export function requestHeadersSize(method: string, url: string, headers: Record<string, string>): number {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname);
  } catch {
    path = '';
  }
  return 4 + method.length + path.length + 8 + headerLines(headers);
}

/** k6's response head size: status line (version, code, text) and headers, then the blank line. */
export function responseHeadersSize(statusText: string, headers: Record<string, string>): number {
  return 4 + 8 + 3 + statusText.length + headerLines(headers) + 2;
}
