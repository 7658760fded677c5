// k6/browser for the Node runner, on playwright-core and the system Chromium. One Chromium per VU,
// launched on first use; one browser context at a time (k6's rule), closed with the page that
// browser.newPage() opened. Pages and locators are Playwright's own objects where k6's API is the
// same (locator(), fill, click, textContent, waitForNavigation, ...), wrapped only where k6 differs
// (close() closing its context, screenshot() returning an ArrayBuffer) and to attach the metrics.
import {
  chromium,
  devices as playwrightDevices,
  type Browser,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
} from 'playwright-core';
import type { VuModuleEnv } from '../../contracts.js';
import { AbortSignal, isAbortSignal, ITERATION_END } from '../api/runtime.js';
import { k6Cookies, k6Headers } from './go-conversions.js';
import { cdpSession, k6View } from './k6-api.js';
import { launchFailure, launchOptions } from '@loadlab/k6-format/browser-launch';
import { networkProfiles } from './network-profiles.js';
import { PageEvents } from './page-events.js';
import { NetworkMetrics } from './network.js';
import { VITALS_BINDING, VITALS_SCRIPT } from './vitals-script.js';
import { VitalsTracker, type VitalReport } from './vitals.js';

/** How long an idle Chromium (no context open) lives before it is closed; reused by the next iteration. */
const IDLE_CLOSE_MS = 2000;

/** k6 context options use a few names of their own. */
function toPlaywrightContextOptions(raw: unknown): BrowserContextOptions {
  if (!raw || typeof raw !== 'object') return {};
  // `name` comes along when a k6 device descriptor is passed as the options.
  const { timezoneID, name: _deviceName, ...rest } = raw as Record<string, unknown>;
  const out = { ...rest } as BrowserContextOptions & Record<string, unknown>;
  if (typeof timezoneID === 'string') out.timezoneId = timezoneID;
  return out;
}

function toArrayBuffer(buf: Buffer): ArrayBuffer {
  return buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer;
}

/**
 * What k6 does to every new page: its user agent set through CDP without client-hint metadata (so no
 * sec-ch-ua headers, unlike Playwright's override) with the locale as Accept-Language, and the
 * favicon request measured.
 */
async function k6PageSetup(
  page: Page,
  network: NetworkMetrics,
  options: BrowserContextOptions,
): Promise<PageEvents> {
  const session = await cdpSession(page);
  await session.send('Emulation.setUserAgentOverride', {
    userAgent: options.userAgent ?? '',
    acceptLanguage: options.locale ?? '',
  });
  await network.watchFavicon(page);
  return PageEvents.watch(page);
}

const userAgents = new WeakMap<Browser, Promise<string>>();

/** The browser's own user agent, as k6 reports it: a headless Chromium's without "Headless". */
function browserUserAgent(b: Browser): Promise<string> {
  let ua = userAgents.get(b);
  if (!ua) {
    ua = (async () => {
      const session = await b.newBrowserCDPSession();
      try {
        const version = (await session.send('Browser.getVersion')) as { userAgent: string };
        return version.userAgent.replaceAll('Headless', '');
      } finally {
        await session.detach().catch(() => {});
      }
    })();
    userAgents.set(b, ua);
  }
  return ua;
}

type Closer = () => Promise<void>;

/** k6's `devices`: name -> { name, userAgent, viewport, deviceScaleFactor, isMobile, hasTouch }. */
function k6Devices(): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, d] of Object.entries(playwrightDevices)) {
    const { userAgent, viewport, deviceScaleFactor, isMobile, hasTouch } = d;
    out[name] = { name, userAgent, viewport, deviceScaleFactor, isMobile, hasTouch };
  }
  return out;
}

/** A Playwright page seen through k6's API: overrides first, then Playwright's own members. */
function k6Page(page: Page, env: VuModuleEnv, beforeClose: Closer, events: PageEvents): Page {
  const vitals = new VitalsTracker(env);
  vitalsByPage.set(page, vitals);
  // A new top-level document ends the previous one, whose pending LCP/CLS/INP k6 never reports.
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) vitals.finishAll(false);
  });
  let closed = false;
  const overrides: Record<string, unknown> = {
    async close() {
      if (closed) return;
      closed = true;
      // Late paint/LCP reports of the current document reach Node before it is torn down.
      vitals.absorb(await page.evaluate(`window.${VITALS_BINDING}Flush?.()`).catch(() => null));
      await events.settle();
      await beforeClose();
      vitals.finishAll(true);
      await page.close().catch(() => {});
    },
    async screenshot(opts?: Parameters<Page['screenshot']>[0]) {
      const dir = env.env.K6_BROWSER_SCREENSHOTS_OUTPUT;
      const options = { ...opts };
      // k6 writes relative screenshot paths under K6_BROWSER_SCREENSHOTS_OUTPUT's folder when set.
      if (dir && options.path && !options.path.startsWith('/'))
        options.path = `${dir.replace(/^file=/, '')}/${options.path}`;
      return toArrayBuffer(await page.screenshot(options));
    },
    // The script's listeners and routes, called in k6's order and for the favicon too (page-events.ts).
    on: (event: string, handler: unknown) => events.on(event, handler),
    route: (url: unknown, handler: unknown) => events.route(url, handler),
    unroute: (url: unknown, handler?: unknown) => events.unroute(url, handler),
    isClosed: () => closed || page.isClosed(),
    context: () => page.context(),
    setExtraHTTPHeaders: (headers: unknown) =>
      page.setExtraHTTPHeaders(k6Headers(headers) as Record<string, string>),
  };
  return k6View(page, overrides);
}

const vitalsByPage = new WeakMap<Page, VitalsTracker>();

export function createBrowserModule(env: VuModuleEnv): { browser: unknown; [k: string]: unknown } {
  let launching: Promise<Browser> | undefined;
  /** The running Chromium once launched: isConnected() asks it, not the launch in progress. */
  let launched: Browser | undefined;
  let idleTimer: NodeJS.Timeout | undefined;
  let current:
    | { raw: BrowserContext; wrapped: unknown; network: NetworkMetrics; options: BrowserContextOptions }
    | undefined;

  /**
   * The VU's Chromium, launched on first use. A Chromium that cannot start aborts the test as k6's
   * does (exit 108, its log line), located at the script's call that needed the browser.
   */
  function chromiumBrowser(): Promise<Browser> {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = undefined;
    const callSite = new Error('browser call site'); // taken now, while the script's frames are on the stack
    const options = launchOptions(env.env);
    launching ??= chromium.launch(options).then(
      (b) => (launched = b),
      (err: Error) => {
        launching = undefined;
        throw err;
      },
    );
    return launching.catch((err: Error) => {
      const reason = launchFailure(options.executablePath!, err);
      const abort = new AbortSignal(reason, `error building browser on IterStart: ${reason}`);
      abort.stack = `${abort.name}: ${reason}\n${callSite.stack?.split('\n').slice(1).join('\n') ?? ''}`;
      throw abort;
    });
  }

  function scheduleIdleClose(): void {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => void closeBrowser(), IDLE_CLOSE_MS);
    idleTimer.unref(); // never keeps a finished VU alive
  }

  async function closeBrowser(): Promise<void> {
    const b = launching;
    launching = undefined;
    launched = undefined;
    if (b) await (await b.catch(() => undefined))?.close().catch(() => {});
  }

  async function openContext(
    options: unknown,
  ): Promise<{ raw: BrowserContext; wrapped: unknown; newPage: () => Promise<Page> }> {
    if (current) throw new Error('existing browser context must be closed before creating a new one');
    const b = await chromiumBrowser();
    const contextOptions = toPlaywrightContextOptions(options);
    // k6 gives every context the browser's user agent (without "Headless") unless the script sets one.
    if (!contextOptions.userAgent?.trim()) contextOptions.userAgent = await browserUserAgent(b);
    contextOptions.locale ??= 'en-US'; // k6's default locale, sent as Accept-Language
    const raw = await b.newContext(contextOptions);
    await raw.exposeBinding(VITALS_BINDING, (source, report: VitalReport) => {
      vitalsByPage.get(source.page)?.report(report);
    });
    await raw.addInitScript({ content: VITALS_SCRIPT });
    const network = new NetworkMetrics(env, raw);
    const closeContext = async (): Promise<void> => {
      if (current?.raw !== raw) return;
      await network.settle();
      current = undefined;
      await raw.close().catch(() => {});
      scheduleIdleClose();
    };
    const pages: Page[] = [];
    const newPage = async (): Promise<Page> => {
      const page = await raw.newPage();
      const events = await k6PageSetup(page, network, contextOptions);
      const wrappedPage = k6Page(page, env, () => network.settle(), events);
      pages.push(wrappedPage);
      return wrappedPage;
    };
    const wrapped = new Proxy(raw, {
      get(target, prop, receiver) {
        switch (prop) {
          case 'newPage':
            return newPage;
          case 'addCookies':
            return (cookies: unknown) =>
              raw.addCookies(k6Cookies(cookies) as Parameters<BrowserContext['addCookies']>[0]);
          case 'cookies':
            // k6's Cookie holds expires as whole seconds (an int64); Chromium's are fractional.
            return async (...urls: string[]) =>
              (await raw.cookies(...urls)).map((c) => ({ ...c, expires: Math.trunc(c.expires) }));
          case 'pages':
            // k6 v1.3 still lists a page the script closed (measured), until the context closes.
            return () => [...pages];
          case 'close':
            return async () => {
              // Each open page flushes its vitals first, as if closed by the script.
              for (const p of pages) await p.close();
              await closeContext();
            };
        }
        const v = Reflect.get(target, prop, receiver) as unknown;
        return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
      },
    });
    current = { raw, wrapped, network, options: contextOptions };
    return { raw, wrapped, newPage };
  }

  const browser = {
    /**
     * A page in a fresh context. As in k6, closing the page leaves its context open (a second
     * newPage in the same iteration is refused); the context closes when the iteration ends.
     */
    async newPage(options?: unknown): Promise<Page> {
      const context = await openContext(options).catch((err: unknown) => {
        if (err instanceof Error && !isAbortSignal(err)) err.message = `new page: ${err.message}`;
        throw err;
      });
      return context.newPage();
    },
    async newContext(options?: unknown): Promise<unknown> {
      return (await openContext(options)).wrapped;
    },
    context(): unknown {
      return current?.wrapped ?? null;
    },
    async closeContext(): Promise<void> {
      if (!current) throw new Error('cannot close context as none is active in browser');
      await (current.wrapped as { close(): Promise<void> }).close();
    },
    isConnected(): boolean {
      return launched?.isConnected() ?? false;
    },
    async version(): Promise<string> {
      return (await chromiumBrowser()).version();
    },
    async userAgent(): Promise<string> {
      return browserUserAgent(await chromiumBrowser());
    },
    /** For the runner (and tests): close Chromium now instead of after the idle delay. */
    async close(): Promise<void> {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = undefined;
      if (current) await (current.wrapped as { close(): Promise<void> }).close();
      await closeBrowser();
    },
  };
  /** k6 ends the iteration's browser context (its IterEnd event); the runner's worker calls this. */
  const iterationEnd = async (): Promise<void> => {
    if (current) await (current.wrapped as { close(): Promise<void> }).close();
  };
  return {
    browser,
    devices: k6Devices(),
    networkProfiles: networkProfiles(),
    [ITERATION_END]: iterationEnd,
  };
}
