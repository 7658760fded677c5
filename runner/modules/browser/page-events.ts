// The script's page.on('request' | 'response') listeners (k6 v1.3 refuses events other than those,
// 'console' and 'metric') and
// page.route handlers, called as k6 v1.3 calls them (measured with fixtures/page-events.js):
// - k6 calls a request's route handler before its request listeners; Playwright the other way round,
//   so a request listener waits for the route handler of a request a route matches.
// - Chromium's own `/favicon.ico` request reaches no Playwright event or route handler (Playwright
//   hides it, and aborts it while the page has routes), but k6 routes it, reports it and lets it reach
//   the server: followed here on the page's CDP session (Network events for the listeners, Fetch
//   interception of that one URL while the page has a route).
import type { CDPSession, Page, Request, Route } from 'playwright-core';
import { cdpSession } from './k6-api.js';
import { isFavicon } from './network.js';
import { goError } from '../api/go-error.js';
import { goQuote } from '@loadlab/k6-format/go-quote';

type Handler = (value: unknown) => unknown;
type UrlMatcher = string | RegExp | ((url: URL) => boolean);

/** The favicon's events a listener can get (k6 v1.3's page.on knows console, metric, request, response). */
const EVENTS = ['request', 'response'] as const;
const PAGE_ON_EVENTS = new Set(['console', 'metric', 'request', 'response']);
type FaviconEvent = (typeof EVENTS)[number];

/** Playwright's abort codes as CDP's Network.ErrorReason. */
const ABORT_REASONS: Record<string, string> = {
  aborted: 'Aborted',
  accessdenied: 'AccessDenied',
  addressunreachable: 'AddressUnreachable',
  blockedbyclient: 'BlockedByClient',
  blockedbyresponse: 'BlockedByResponse',
  connectionaborted: 'ConnectionAborted',
  connectionclosed: 'ConnectionClosed',
  connectionfailed: 'ConnectionFailed',
  connectionrefused: 'ConnectionRefused',
  connectionreset: 'ConnectionReset',
  internetdisconnected: 'InternetDisconnected',
  namenotresolved: 'NameNotResolved',
  timedout: 'TimedOut',
  failed: 'Failed',
};

/** A route's URL pattern as Playwright reads it: a glob (`*` within a path segment, `**` across, `{a,b}`), a RegExp or a predicate. */
export function urlMatches(pattern: UrlMatcher, url: string): boolean {
  if (pattern instanceof RegExp) return new RegExp(pattern.source, pattern.flags.replace('g', '')).test(url);
  if (typeof pattern === 'function') return Boolean(pattern(new URL(url)));
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i]!;
    if (c === '*' && pattern[i + 1] === '*') {
      source += '.*';
      i++;
    } else if (c === '*') source += '[^/]*';
    else if (c === '{') source += '(';
    else if (c === '}') source += ')';
    else if (c === ',') source += '|';
    else source += c.replace(/[.+?^$()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${source}$`).test(url);
}

interface SeenRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  response?: FaviconResponse;
}

/** What a listener or route handler gets for the favicon: the Request members scripts read. */
class FaviconRequest {
  constructor(
    private readonly seen: SeenRequest,
    private readonly page: Page,
  ) {}
  url = (): string => this.seen.url;
  method = (): string => this.seen.method;
  headers = (): Record<string, string> => lowerCased(this.seen.headers);
  allHeaders = async (): Promise<Record<string, string>> => this.headers();
  headerValue = async (name: string): Promise<string | null> => this.headers()[name.toLowerCase()] ?? null;
  isNavigationRequest = (): boolean => false;
  resourceType = (): string => 'other';
  postData = (): null => null;
  postDataBuffer = (): null => null;
  frame = () => this.page.mainFrame();
  response = async (): Promise<FaviconResponse | null> => this.seen.response ?? null;
  failure = (): null => null;
}

class FaviconResponse {
  constructor(
    private readonly request_: FaviconRequest,
    private readonly answer: {
      url: string;
      status: number;
      statusText: string;
      headers: Record<string, string>;
    },
    private readonly body_: () => Promise<Buffer>,
  ) {}
  url = (): string => this.answer.url;
  status = (): number => this.answer.status;
  statusText = (): string => this.answer.statusText;
  ok = (): boolean => this.answer.status === 0 || (this.answer.status >= 200 && this.answer.status <= 299);
  headers = (): Record<string, string> => lowerCased(this.answer.headers);
  allHeaders = async (): Promise<Record<string, string>> => this.headers();
  headerValue = async (name: string): Promise<string | null> => this.headers()[name.toLowerCase()] ?? null;
  request = (): FaviconRequest => this.request_;
  frame = () => this.request_.frame();
  body = (): Promise<Buffer> => this.body_();
  text = async (): Promise<string> => (await this.body_()).toString('utf8');
  json = async (): Promise<unknown> => JSON.parse(await this.text());
}

interface ContinueOptions {
  url?: string;
  method?: string;
  headers?: Record<string, unknown>;
  postData?: unknown;
}

function stringValues(headers: Record<string, unknown> | undefined): Record<string, string> {
  return Object.fromEntries(Object.entries(headers ?? {}).map(([k, v]) => [k, String(v)]));
}

function lowerCased(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
}

/** Runs a script's handler as Playwright runs its listeners: a throw does not stop the page's other work. */
function call(handler: Handler, value: unknown): void {
  void Promise.resolve()
    .then(() => handler(value))
    .catch((error: unknown) => queueMicrotask(() => Promise.reject(error)));
}

export class PageEvents {
  private readonly listeners = new Map<FaviconEvent, Handler[]>();
  private readonly routes: { pattern: UrlMatcher; handler: Handler; viaPlaywright: boolean }[] = [];
  private intercepting: Promise<void> | undefined;
  private readonly requests = new Map<string, { seen: SeenRequest; request: FaviconRequest }>();

  private constructor(
    private readonly page: Page,
    private readonly session: CDPSession,
  ) {}

  /** Follows the page's favicon request; call before its first navigation. */
  static async watch(page: Page): Promise<PageEvents> {
    const events = new PageEvents(page, await cdpSession(page));
    events.follow();
    return events;
  }

  /** Request listeners waiting for the route handler of their request. */
  private readonly heldRequests = new Map<Request, (() => void)[]>();
  /** The function given to Playwright for each script route handler (for unroute). */
  private readonly wrappers = new Map<unknown, (route: Route) => unknown>();

  /** Runs the request listeners held for `req`; also when no route handler took it after all. */
  private release(req: Request): void {
    const held = this.heldRequests.get(req);
    if (!held) return;
    this.heldRequests.delete(req);
    for (const run of held) run();
  }

  /** page.on(event, handler), the favicon's events included. */
  on(event: string, handler: unknown): void {
    if (!PAGE_ON_EVENTS.has(event)) {
      throw Object.defineProperty(goError(`unknown page on event: ${goQuote(String(event))}`), 'goFrame', {
        value: 'go.k6.io/k6/internal/js/modules/k6/browser/browser.mapPage.mapPageOn.func64',
      });
    }
    if (event === 'request' && typeof handler === 'function') {
      this.page.on('request', (req) => {
        const run = () => (handler as Handler)(req);
        const routed = this.routes.some((r) => r.viaPlaywright && urlMatches(r.pattern, req.url()));
        if (!routed) return run();
        const held = this.heldRequests.get(req) ?? [];
        held.push(run);
        this.heldRequests.set(req, held);
      });
    } else this.page.on(event as 'response', handler as () => void);
    if (typeof handler !== 'function' || !(EVENTS as readonly string[]).includes(event)) return;
    const list = this.listeners.get(event as FaviconEvent) ?? [];
    list.push(handler as Handler);
    this.listeners.set(event as FaviconEvent, list);
  }

  /** page.route(url, handler): from now on the favicon request is paused for the page's routes too. */
  async route(pattern: unknown, handler: unknown): Promise<void> {
    const wrapper = (route: Route) => {
      try {
        return (handler as (r: Route) => unknown)(route);
      } finally {
        this.release(route.request()); // its request listeners run once the route handler has (k6's order)
      }
    };
    this.wrappers.set(handler, wrapper);
    await this.page.route(pattern as UrlMatcher, wrapper);
    if (typeof handler !== 'function') return;
    // Playwright runs the route added last first.
    this.routes.unshift({ pattern: pattern as UrlMatcher, handler: handler as Handler, viaPlaywright: true });
    this.intercepting ??= this.session
      .send('Fetch.enable', { patterns: [{ urlPattern: '*/favicon.ico' }] })
      .then(() => undefined);
    await this.intercepting;
  }

  /**
   * Waits (at most `maxMs`) for a favicon request in flight to end, so its events reach the script
   * before the page closes: k6 reports it before a navigation's networkidle, Playwright never waits
   * for it.
   */
  async settle(maxMs = 2000): Promise<void> {
    const until = Date.now() + maxMs;
    while (this.requests.size > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 10));
  }

  async unroute(pattern: unknown, handler?: unknown): Promise<void> {
    await this.page.unroute(
      pattern as UrlMatcher,
      handler === undefined ? undefined : (this.wrappers.get(handler) as undefined),
    );
    for (let i = this.routes.length - 1; i >= 0; i--) {
      const r = this.routes[i]!;
      if (String(r.pattern) === String(pattern) && (handler === undefined || r.handler === handler))
        this.routes.splice(i, 1);
    }
  }

  private emit(event: FaviconEvent, value: unknown): void {
    for (const handler of this.listeners.get(event) ?? []) call(handler, value);
  }

  private requestFor(networkId: string, seen: SeenRequest): FaviconRequest {
    let known = this.requests.get(networkId);
    if (!known) {
      known = { seen, request: new FaviconRequest(seen, this.page) };
      this.requests.set(networkId, known);
    }
    return known.request;
  }

  private follow(): void {
    // A held request whose route handler never ran (another route took it) still reaches its listeners.
    this.page.on('response', (res) => this.release(res.request()));
    this.page.on('requestfailed', (req) => this.release(req));
    const s = this.session;
    s.on('Network.requestWillBeSent', (e) => {
      if (e.type !== 'Other' || !isFavicon(e.request.url) || this.requests.has(e.requestId)) return;
      const seen = {
        url: e.request.url,
        method: e.request.method,
        headers: e.request.headers as Record<string, string>,
      };
      // While the page has routes, the request event follows the route handler (Fetch.requestPaused).
      const request = this.requestFor(e.requestId, seen);
      if (!this.intercepting) this.emit('request', request);
    });
    s.on('Fetch.requestPaused', (e) => {
      const networkId = e.networkId ?? e.requestId;
      const seen = {
        url: e.request.url,
        method: e.request.method,
        headers: e.request.headers as Record<string, string>,
      };
      const request = this.requestFor(networkId, seen);
      const route = this.routes.find((r) => urlMatches(r.pattern, e.request.url));
      const settle = (method: string, params: Record<string, unknown>) => {
        this.emit('request', request);
        return s
          .send(method as 'Fetch.fulfillRequest', { requestId: e.requestId, ...params } as never)
          .catch(() => {});
      };
      // Playwright aborts every favicon request while the page has routes (its own interception
      // comes after this one), where k6 lets it reach the server: a request that goes on is made
      // here, and its answer given to Chromium.
      const goOn = async (o: ContinueOptions = {}) => {
        const headers = { ...(e.request.headers as Record<string, string>), ...stringValues(o.headers) };
        try {
          const answer = await fetch(o.url ?? e.request.url, {
            method: o.method ?? e.request.method,
            headers,
            body: o.postData === undefined ? undefined : String(o.postData),
            redirect: 'manual',
          });
          const body = Buffer.from(await answer.arrayBuffer());
          const responseHeaders: { name: string; value: string }[] = [];
          answer.headers.forEach((value, name) => responseHeaders.push({ name, value }));
          await settle('Fetch.fulfillRequest', {
            responseCode: answer.status,
            responsePhrase: answer.statusText,
            responseHeaders,
            body: body.toString('base64'),
          });
        } catch {
          await settle('Fetch.failRequest', { errorReason: 'ConnectionFailed' });
        }
      };
      if (!route) {
        void goOn();
        return;
      }
      call(route.handler, {
        request: () => request,
        continue: goOn,
        fulfill: (
          o: { status?: number; headers?: Record<string, string>; contentType?: string; body?: string } = {},
        ) => {
          const headers = Object.entries(stringValues(o.headers)).map(([name, value]) => ({ name, value }));
          if (o.contentType) headers.push({ name: 'content-type', value: o.contentType });
          return settle('Fetch.fulfillRequest', {
            responseCode: o.status ?? 200,
            responseHeaders: headers,
            body: Buffer.from(o.body ?? '').toString('base64'),
          });
        },
        abort: (code = 'failed') =>
          settle('Fetch.failRequest', { errorReason: ABORT_REASONS[String(code).toLowerCase()] ?? 'Failed' }),
      });
    });
    s.on('Network.responseReceived', (e) => {
      const known = this.requests.get(e.requestId);
      if (!known) return;
      const answer = {
        url: e.response.url,
        status: e.response.status,
        statusText: e.response.statusText,
        headers: e.response.headers as Record<string, string>,
      };
      known.seen.response = new FaviconResponse(known.request, answer, async () => {
        const b = await s.send('Network.getResponseBody', { requestId: e.requestId });
        return Buffer.from(b.body, b.base64Encoded ? 'base64' : 'utf8');
      });
      this.emit('response', known.seen.response);
    });
    const end = (requestId: string) => this.requests.delete(requestId);
    s.on('Network.loadingFinished', (e) => end(e.requestId));
    s.on('Network.loadingFailed', (e) => end(e.requestId));
  }
}
