// browser_http_req_duration / _failed and browser_data_sent / _received for every request a page
// makes, with k6's tag set (internal/js/modules/k6/browser/k6ext/metrics.go): method, name, url,
// proto, status, resource_type (CDP spelling), from_cache, from_prefetch_cache, from_service_worker.
import type { BrowserContext, Request } from 'playwright-core';
import type { Sample, VuModuleEnv } from '../../types.js';

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
    const sizes = await req.sizes().catch(() => undefined);
    const timing = req.timing();
    const status = response?.status() ?? 0;
    // responseEnd is relative to startTime; -1 when the browser could not say (failures).
    const duration =
      timing.responseEnd >= 0 ? timing.responseEnd : Math.max(0, Date.now() - timing.startTime);
    const tags: Record<string, string> = {
      ...this.env.currentTags(),
      method: req.method(),
      name: url,
      url,
      status: String(status),
      resource_type: cdpResourceType(req.resourceType()),
      from_cache: 'false',
      from_prefetch_cache: 'false',
      from_service_worker: String(response?.fromServiceWorker() ?? false),
    };
    // Chromium speaks HTTP/1.1 on cleartext; for TLS the negotiated protocol is not exposed.
    if (url.startsWith('http:')) tags.proto = 'http/1.1';
    // k6 tags data_sent with the request side only.
    const sentTags = {
      ...this.env.currentTags(),
      method: tags.method!,
      name: url,
      url,
      resource_type: tags.resource_type!,
    };
    const time = Date.now();
    const samples: Sample[] = [
      { metric: 'browser_http_req_duration', type: 'trend', contains: 'time', value: duration, tags, time },
      {
        metric: 'browser_http_req_failed',
        type: 'rate',
        contains: 'default',
        value: status === 0 || status >= 400 ? 1 : 0,
        tags,
        time,
      },
    ];
    if (sizes) {
      samples.push(
        {
          metric: 'browser_data_sent',
          type: 'counter',
          contains: 'data',
          value: sizes.requestHeadersSize + sizes.requestBodySize,
          tags: sentTags,
          time,
        },
        {
          metric: 'browser_data_received',
          type: 'counter',
          contains: 'data',
          value: Math.max(0, sizes.responseHeadersSize) + Math.max(0, sizes.responseBodySize),
          tags,
          time,
        },
      );
    }
    this.env.emit(samples);
  }
}
