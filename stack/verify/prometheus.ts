// What stack:verify asks Prometheus (http://localhost:9090 from the host), read off
// prometheus/prometheus at v2.53.4 (the compose image's version).
export interface ScrapeTarget {
  job: string;
  scrapeUrl: string;
  health: string;
  lastError: string;
}

/**
 * GET /api/v1/targets?state=active (web/api/v1/api.go:376, :1033 reads `state`): `data.activeTargets`,
 * each with `labels`, `scrapeUrl`, `lastError` and `health` (api.go:910-927), "up" when the last scrape
 * worked (scrape/target.go:43).
 */
export async function activeTargets(url: string): Promise<ScrapeTarget[]> {
  const response = await fetch(`${url.replace(/\/$/, '')}/api/v1/targets?state=active`, {
    signal: AbortSignal.timeout(15_000),
  }).catch((error: Error) => {
    throw new Error(`no answer from Prometheus at ${url} (${error.message})`);
  });
  const json = (await response.json()) as {
    status?: string;
    data?: {
      activeTargets?: Array<{
        labels?: Record<string, string>;
        scrapeUrl?: string;
        health?: string;
        lastError?: string;
      }>;
    };
  };
  if (!response.ok || json.status !== 'success') throw new Error(`/api/v1/targets: HTTP ${response.status}`);
  return (json.data?.activeTargets ?? []).map((t) => ({
    job: t.labels?.job ?? '',
    scrapeUrl: t.scrapeUrl ?? '',
    health: t.health ?? '',
    lastError: t.lastError ?? '',
  }));
}

/**
 * Each job with the names of the metrics it exposed at the end of the window: an instant selector, so
 * the names survive (a range function such as count_over_time would drop __name__).
 */
export async function metricsByJob(
  url: string,
  window: { fromMs: number; toMs: number },
): Promise<Map<string, Set<string>>> {
  const body = new URLSearchParams({
    query: 'count by (job, __name__) ({job!=""})',
    time: String(Math.min(window.toMs, Date.now()) / 1000),
  });
  const response = await fetch(`${url.replace(/\/$/, '')}/api/v1/query`, {
    method: 'POST',
    body,
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw new Error(`no answer from Prometheus at ${url} (${error.message})`);
  });
  const json = (await response.json()) as {
    status?: string;
    error?: string;
    data?: { result?: Array<{ metric: Record<string, string> }> };
  };
  if (!response.ok || json.status !== 'success')
    throw new Error(`/api/v1/query: ${json.error ?? response.status}`);
  const byJob = new Map<string, Set<string>>();
  for (const { metric } of json.data?.result ?? []) {
    const names = byJob.get(metric.job ?? '') ?? new Set<string>();
    names.add(metric.__name__ ?? '');
    byJob.set(metric.job ?? '', names);
  }
  return byJob;
}
