// A stand-in Grafana for the stack:verify tests (no Grafana runs here). It answers only the calls
// stack:verify makes, checks each request against what Grafana's sources say it takes (a deviation is
// answered 400 and kept in `violations`, which the tests require to be empty), and serves the answers
// from the real services behind it: InfluxQL from a real InfluxDB, PromQL from a real Prometheus, the
// dashboards and datasources from the repository's own provisioning files.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { builtDashboards, provisionedDatasources } from '../checks.js';
import { framesHaveData, type DsQuery, type FrameJson } from '../grafana-api.js';
import { dsQueryRequest, panelTargets, variablesFor } from '../panel-requests.js';
import {
  loadingIndicator,
  panelCancelQuery,
  panelDataErrorMessage,
  panelLoadingBar,
  panelPrefix,
  panelStatusError,
  panelStreaming,
  spinner,
} from '../grafana-selectors.js';

export interface GrafanaDoubleOptions {
  root: string;
  user: string;
  password: string;
  /** Where the provisioned datasources point (compose's service names, here loopback). */
  influxUrl: string;
  influxDb: string;
  influxToken: string;
  prometheusUrl: string;
  /** Dashboard uids left unprovisioned, to show the check fails. */
  hide?: string[];
  /**
   * The page also carries what Grafana 11.6's UI keeps on it (stack/verify/settle.ts names the sources):
   * a Loading indicator and a Spinner outside the panels that never go, every panel but the first
   * reloading every 1.5 s (the dashboards' 5 s refresh, faster) with its loading bar and cancel button,
   * and the first panel streaming.
   */
  grafanaChrome?: boolean;
}

export interface GrafanaDouble {
  url: string;
  violations: string[];
  requests: string[];
  close(): Promise<void>;
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'Content-Type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** InfluxDB 1.x /query series as Grafana's InfluxQL backend turns them into frames: one per series and value column. */
function influxFrames(
  refId: string,
  series: Array<{ name: string; columns: string[]; values: unknown[][] }>,
): FrameJson[] {
  return series.flatMap((s) =>
    s.columns.slice(1).map((column, i) => ({
      schema: {
        name: `${s.name}.${column}`,
        refId,
        fields: [
          { name: 'Time', type: 'time' },
          {
            name: 'Value',
            type: s.values.some((row) => typeof row[i + 1] === 'string') ? 'string' : 'number',
          },
        ],
      },
      data: { values: [s.values.map((row) => row[0]), s.values.map((row) => row[i + 1] ?? null)] },
    })),
  );
}

/** Prometheus matrix series as frames: time and one number field each. */
function promFrames(
  refId: string,
  result: Array<{ metric: Record<string, string>; values: Array<[number, string]> }>,
): FrameJson[] {
  return result.map((s) => ({
    schema: {
      refId,
      fields: [
        { name: 'Time', type: 'time' },
        { name: 'Value', type: 'number' },
      ],
    },
    data: { values: [s.values.map(([t]) => t * 1000), s.values.map(([, v]) => Number(v))] },
  }));
}

export async function startGrafanaDouble(options: GrafanaDoubleOptions): Promise<GrafanaDouble> {
  const violations: string[] = [];
  const requests: string[] = [];
  const datasources = provisionedDatasources(options.root);
  const dashboards = builtDashboards(options.root).filter((d) => !(options.hide ?? []).includes(d.uid ?? ''));
  const basic = `Basic ${Buffer.from(`${options.user}:${options.password}`).toString('base64')}`;
  const influxHeaders = { Authorization: `Token ${options.influxToken}` };

  const violation = (res: ServerResponse, message: string) => {
    violations.push(message);
    send(res, 400, { message });
  };

  async function influx(q: string) {
    const body = new URLSearchParams({ db: options.influxDb, q, epoch: 'ms' });
    const response = await fetch(`${options.influxUrl}/query`, {
      method: 'POST',
      headers: influxHeaders,
      body,
    });
    const json = (await response.json()) as {
      results?: Array<{ series?: never[]; error?: string }>;
      error?: string;
    };
    const error = json.error ?? json.results?.[0]?.error;
    if (error) throw new Error(error);
    return json.results?.[0]?.series ?? [];
  }

  async function prometheus(path: string, params: Record<string, string>) {
    const response = await fetch(`${options.prometheusUrl}${path}`, {
      method: 'POST',
      body: new URLSearchParams(params),
    });
    const json = (await response.json()) as { status: string; error?: string; data?: { result?: never[] } };
    if (json.status !== 'success') throw new Error(json.error ?? 'query failed');
    return json.data?.result ?? [];
  }

  /**
   * Each query as @grafana/runtime 11.6.0 sends it (DataSourceWithBackend.mjs:94-103: the target with
   * variables applied, its datasource ref, intervalMs, maxDataPoints), checked against what the
   * provisioning made.
   */
  function checkQuery(query: DsQuery, where: string): string | undefined {
    if (typeof query.refId !== 'string' || !query.refId) return `${where}: refId must be a non-empty string`;
    const ds = datasources.find((d) => d.uid === query.datasource?.uid);
    if (!ds) return `${where}: datasource.uid ${query.datasource?.uid} is not provisioned`;
    if (query.datasource.type !== ds.type)
      return `${where}: datasource.type ${query.datasource.type}, provisioned ${ds.type}`;
    if (!Number.isInteger(query.intervalMs) || query.intervalMs <= 0)
      return `${where}: intervalMs must be a positive integer`;
    if (!Number.isInteger(query.maxDataPoints) || query.maxDataPoints <= 0)
      return `${where}: maxDataPoints must be a positive integer`;
    const text = ds.type === 'influxdb' ? query.query : query.expr;
    if (typeof text !== 'string' || !text)
      return `${where}: ${ds.type === 'influxdb' ? 'query' : 'expr'} missing`;
    if (ds.type === 'influxdb' && query.rawQuery !== true)
      return `${where}: a raw InfluxQL target needs rawQuery: true`;
    if (/\$\w/.test(text)) return `${where}: a template variable was left unfilled: ${text}`;
    return undefined;
  }

  /** Each query answered by the real service behind its datasource, as Grafana's backends would. */
  async function answer(queries: DsQuery[], fromMs: number, toMs: number) {
    const results: Record<string, { status: number; frames?: FrameJson[]; error?: string }> = {};
    for (const query of queries) {
      try {
        const frames =
          query.datasource.type === 'influxdb'
            ? influxFrames(query.refId, await influx(String(query.query)))
            : promFrames(
                query.refId,
                await prometheus('/api/v1/query_range', {
                  query: String(query.expr),
                  start: String(fromMs / 1000),
                  end: String(toMs / 1000),
                  step: String(query.intervalMs / 1000),
                }),
              );
        results[query.refId] = { status: 200, frames };
      } catch (error) {
        results[query.refId] = { status: 400, error: (error as Error).message };
      }
    }
    return results;
  }

  /**
   * What the double's dashboard page shows for one panel: its queries as stack:verify would send them
   * for the window and testid in the page's URL, answered as above.
   */
  async function panelState(url: URL, res: ServerResponse) {
    const dashboard = dashboards.find((d) => d.uid === url.searchParams.get('uid'));
    const window = { fromMs: Number(url.searchParams.get('from')), toMs: Number(url.searchParams.get('to')) };
    const targets = panelTargets(dashboard ?? {}).filter((t) => t.panel === url.searchParams.get('title'));
    const variables = variablesFor(url.searchParams.get('testid') ?? '', window);
    const queries = targets.flatMap((t) => dsQueryRequest(t, window, variables).request.queries);
    const results = Object.values(await answer(queries, window.fromMs, window.toMs));
    const error = results.find((r) => r.error)?.error;
    send(res, 200, { error, hasData: results.some((r) => framesHaveData(r.frames)) });
  }

  async function dsQuery(req: IncomingMessage, res: ServerResponse, url: URL) {
    if (!/^application\/json\b/.test(req.headers['content-type'] ?? ''))
      return violation(res, `POST /api/ds/query with Content-Type ${req.headers['content-type']}`);
    let body: { from?: unknown; to?: unknown; queries?: DsQuery[] };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch {
      return violation(res, 'POST /api/ds/query: body is not JSON');
    }
    if (
      typeof body.from !== 'string' ||
      typeof body.to !== 'string' ||
      !/^\d+$/.test(body.from) ||
      !/^\d+$/.test(body.to)
    )
      return violation(
        res,
        `POST /api/ds/query: from/to must be strings of epoch ms, got ${JSON.stringify([body.from, body.to])}`,
      );
    if (!Array.isArray(body.queries) || body.queries.length === 0)
      return violation(res, 'POST /api/ds/query: no queries');
    const refIds = body.queries.map((q) => q.refId);
    if (new Set(refIds).size !== refIds.length)
      return violation(res, `POST /api/ds/query: refIds repeat: ${refIds}`);
    for (const [i, query] of body.queries.entries()) {
      const problem = checkQuery(query, `queries[${i}]`);
      if (problem) return violation(res, `POST /api/ds/query ${problem}`);
    }
    // What @grafana/runtime 11.6.0 adds around the body (DataSourceWithBackend.mjs:118-122).
    const types = [...new Set(body.queries.map((q) => q.datasource.type))];
    const uids = [...new Set(body.queries.map((q) => q.datasource.uid))];
    if (url.searchParams.get('ds_type') !== types[0])
      return violation(res, `POST /api/ds/query?ds_type=${url.searchParams.get('ds_type')} for ${types}`);
    if (
      req.headers['x-plugin-id'] !== types.join(', ') ||
      req.headers['x-datasource-uid'] !== uids.join(', ')
    )
      return violation(res, 'POST /api/ds/query without the X-Plugin-Id and X-Datasource-Uid of its queries');
    const results = await answer(body.queries, Number(body.from), Number(body.to));
    const failed = Object.values(results).some((r) => r.error);
    send(res, failed ? 400 : 200, { results });
  }

  async function datasourceHealth(uid: string, res: ServerResponse) {
    const ds = datasources.find((d) => d.uid === uid);
    if (!ds) return send(res, 404, { message: 'Data source not found' });
    try {
      if (ds.type === 'influxdb') await influx('SHOW MEASUREMENTS LIMIT 1');
      else await prometheus('/api/v1/query', { query: '1+1' });
      send(res, 200, { status: 'OK', message: `${ds.type} is working` });
    } catch (error) {
      send(res, 400, { status: 'ERROR', message: (error as Error).message });
    }
  }

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://double');
    requests.push(`${req.method} ${url.pathname}`);
    void (async () => {
      if (req.method === 'GET' && url.pathname === '/api/health')
        return send(res, 200, { commit: 'double', database: 'ok', version: '11.6.0' });
      if (req.headers.authorization !== basic) {
        violations.push(`${req.method} ${url.pathname} without the admin's basic auth`);
        return send(res, 401, { message: 'Unauthorized' });
      }
      const health = /^\/api\/datasources\/uid\/([^/]+)\/health$/.exec(url.pathname);
      const dashboard = /^\/api\/dashboards\/uid\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && url.pathname === '/api/datasources')
        return send(
          res,
          200,
          datasources.map((d, i) => ({ id: i + 1, uid: d.uid, name: d.name, type: d.type })),
        );
      if (req.method === 'GET' && health) return datasourceHealth(decodeURIComponent(health[1]!), res);
      if (req.method === 'GET' && dashboard) {
        const found = dashboards.find((d) => d.uid === decodeURIComponent(dashboard[1]!));
        if (!found) return send(res, 404, { message: 'Dashboard not found' });
        return send(res, 200, { dashboard: found, meta: { provisioned: true, folderTitle: 'loadlab' } });
      }
      if (req.method === 'POST' && url.pathname === '/api/ds/query') return dsQuery(req, res, url);
      const page = /^\/d\/([^/]+)$/.exec(url.pathname);
      if (req.method === 'GET' && page) {
        for (const name of ['from', 'to', 'var-testid'])
          if (!url.searchParams.get(name)) return violation(res, `GET ${url.pathname} without ${name}`);
        if (!url.searchParams.has('kiosk')) return violation(res, `GET ${url.pathname} not in kiosk mode`);
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        return res.end(dashboardPage(options.grafanaChrome ?? false));
      }
      if (req.method === 'GET' && url.pathname === '/double/panel') return panelState(url, res);
      if (url.pathname === '/favicon.ico') return send(res, 404, {}); // Chromium asks for it itself
      violation(res, `${req.method} ${url.pathname}: not an API stack:verify should call`);
    })().catch((error: Error) => send(res, 500, { message: error.message }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    violations,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/**
 * The double's dashboard page: not Grafana's UI, only the markers Grafana 11.6 puts on a panel, under
 * the names of @grafana/e2e-selectors (grafana-selectors.ts), with each panel loading after its own
 * delay, so the screenshot code's waiting and reading is tested against a page that changes under it.
 */
const dashboardPage = (chrome: boolean) => `<!doctype html><html><head><title>double</title>
<style>body{font-family:sans-serif;background:#111;color:#ddd}section{display:inline-block;width:380px;height:140px;margin:6px;border:1px solid #444;vertical-align:top}h2{font-size:14px;margin:4px}</style>
</head><body><div id="spinner" data-testid=${JSON.stringify(loadingIndicator)}>Loading</div><div id="grid"></div><script>
const CHROME = ${JSON.stringify(chrome)};
if (CHROME) document.body.insertAdjacentHTML('afterbegin',
  '<nav><span data-testid=${JSON.stringify(loadingIndicator)}>refresh</span><div data-testid=${JSON.stringify(spinner)}>variable</div></nav>');
(async () => {
  const params = new URLSearchParams(location.search);
  const uid = location.pathname.split('/').pop();
  const { dashboard } = await (await fetch('/api/dashboards/uid/' + uid)).json();
  const panels = [];
  const walk = (list) => (list || []).forEach((p) => { if (p.type !== 'row') panels.push(p.title); walk(p.panels); });
  walk(dashboard.panels);
  document.getElementById('spinner').remove();
  for (const [i, title] of panels.entries()) {
    const section = document.createElement('section');
    section.setAttribute('data-testid', ${JSON.stringify(panelPrefix)} + title);
    section.innerHTML = '<h2></h2><div aria-label=${JSON.stringify(panelLoadingBar)}>loading</div>';
    section.querySelector('h2').textContent = title;
    document.getElementById('grid').append(section);
    setTimeout(async () => {
      const query = new URLSearchParams({ uid, title, from: params.get('from'), to: params.get('to'), testid: params.get('var-testid') });
      const state = await (await fetch('/double/panel?' + query)).json();
      section.querySelector('[aria-label]').remove();
      const body = document.createElement('div');
      if (state.error) body.setAttribute('data-testid', ${JSON.stringify(panelStatusError)});
      else if (!state.hasData) body.setAttribute('data-testid', ${JSON.stringify(panelDataErrorMessage)});
      body.textContent = state.error ? 'error: ' + state.error : state.hasData ? 'data' : 'No data';
      section.append(body);
      if (CHROME && i === 0) section.insertAdjacentHTML('beforeend', '<span data-testid=${JSON.stringify(panelStreaming)}>live</span>');
      else if (CHROME)
        setInterval(() => {
          section.insertAdjacentHTML('afterbegin', '<div class="reload" aria-label=${JSON.stringify(panelLoadingBar)}></div><span class="reload" data-testid=${JSON.stringify(panelCancelQuery)}></span>');
          setTimeout(() => section.querySelectorAll('.reload').forEach((e) => e.remove()), 400);
        }, 1500);
    }, 100 + ((i * 337) % 1400));
  }
})();
</script></body></html>`;
