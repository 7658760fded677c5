// The Grafana HTTP API calls stack:verify makes, as Grafana 11.6.0's own frontend makes them: read from
// @grafana/runtime 11.6.0 (npm pack; dist/esm/utils/DataSourceWithBackend.mjs and queryResponse.mjs,
// cited by line) and grafana-plugin-sdk-go (fetched; the answer's JSON). Grafana's server sources could
// not be fetched at 11.6.0 (the repository is 3.2 GB); where they are named below (pkg/api/...), it is
// from the search index's stored copies of other versions, so no line numbers are given for them.
export interface GrafanaClient {
  url: string;
  /** `Basic <base64 user:password>`: Grafana's basic auth is on by default ([auth.basic] enabled). */
  authorization: string;
}

export function grafanaClient(url: string, user: string, password: string): GrafanaClient {
  const token = Buffer.from(`${user}:${password}`).toString('base64');
  return { url: url.replace(/\/$/, ''), authorization: `Basic ${token}` };
}

export class GrafanaError extends Error {}

async function call<T>(
  client: GrafanaClient,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  headers: Record<string, string> = {},
) {
  let response: Response;
  try {
    response = await fetch(`${client.url}${path}`, {
      method,
      headers: {
        Authorization: client.authorization,
        Accept: 'application/json',
        ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(30_000),
    });
  } catch (error) {
    throw new GrafanaError(`${method} ${path}: no answer from ${client.url} (${(error as Error).message})`);
  }
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new GrafanaError(`${method} ${path}: HTTP ${response.status}, not JSON: ${text.slice(0, 200)}`);
  }
  return { status: response.status, json: json as T };
}

/** GET /api/health, unauthenticated: `{database: "ok", version, commit}` (pkg/api/http_server.go, apiHealthHandler). */
export async function grafanaHealth(client: GrafanaClient) {
  const { status, json } = await call<{ database?: string; version?: string }>(client, 'GET', '/api/health');
  return { status, database: json.database ?? '', version: json.version ?? '' };
}

export interface GrafanaDatasource {
  uid: string;
  name: string;
  type: string;
}

/** GET /api/datasources: the list (pkg/api/datasources.go GetDataSources; needs datasources:read). */
export async function grafanaDatasources(client: GrafanaClient): Promise<GrafanaDatasource[]> {
  const { status, json } = await call<GrafanaDatasource[] | { message?: string }>(
    client,
    'GET',
    '/api/datasources',
  );
  if (status !== 200 || !Array.isArray(json))
    throw new GrafanaError(`GET /api/datasources: HTTP ${status} ${JSON.stringify(json).slice(0, 200)}`);
  return json;
}

/**
 * GET /api/datasources/uid/:uid/health, as the datasource's "Test" button calls it
 * (DataSourceWithBackend.mjs:236-270): the plugin's CheckHealth result, `{status: "OK"|"ERROR", message}`
 * (grafana-plugin-sdk-go backend/diagnostics.go:50-51), an HTTP error status when not OK (the frontend
 * reads the same body from the error, :246-251).
 */
export async function grafanaDatasourceHealth(client: GrafanaClient, uid: string) {
  const { status, json } = await call<{ status?: string; message?: string }>(
    client,
    'GET',
    `/api/datasources/uid/${encodeURIComponent(uid)}/health`,
  );
  return { httpStatus: status, status: json.status ?? '', message: json.message ?? '' };
}

export interface DashboardJson {
  uid?: string;
  title?: string;
  panels?: unknown[];
  templating?: { list?: unknown[] };
}

/** GET /api/dashboards/uid/:uid: `{dashboard, meta}` (dtos.DashboardFullWithMeta); 404 when absent. */
export async function grafanaDashboard(client: GrafanaClient, uid: string) {
  const { status, json } = await call<{
    dashboard?: DashboardJson;
    meta?: { provisioned?: boolean; folderTitle?: string };
  }>(client, 'GET', `/api/dashboards/uid/${encodeURIComponent(uid)}`);
  return { status, dashboard: json.dashboard, meta: json.meta ?? {} };
}

/** One query of a /api/ds/query request: the panel's target as the dashboard stores it, filled in. */
export interface DsQuery {
  refId: string;
  datasource: { type: string; uid: string };
  intervalMs: number;
  maxDataPoints: number;
  [field: string]: unknown;
}

/**
 * POST /api/ds/query's body as DataSourceWithBackend.query builds it (DataSourceWithBackend.mjs:59-111):
 * each target with its template variables applied, plus `datasource` (the ref), `intervalMs` and
 * `maxDataPoints`; `from`/`to` as `range.from.valueOf().toString()`, epoch milliseconds in a string
 * (dtos.MetricRequest on the server).
 */
export interface DsQueryRequest {
  from: string;
  to: string;
  queries: DsQuery[];
}

export interface FrameJson {
  schema?: { name?: string; refId?: string; fields?: Array<{ name?: string; type?: string }> };
  data?: { values?: unknown[][] };
}

/**
 * The answer, backend.QueryDataResponse as grafana-plugin-sdk-go backend/json.go:51-130 writes it:
 * `{results: {<refId>: {status, frames?, error?, errorSource?}}}`, read by the frontend per refId, an
 * `error` first, then `frames` (queryResponse.mjs:13-50); each frame as data/frame_json.go writes it:
 * `{schema: {fields: [{name, type}]}, data: {values: [[column], ...]}}`.
 */
export interface DsQueryResponse {
  results?: Record<string, { status?: number; error?: string; frames?: FrameJson[] }>;
  message?: string;
}

/**
 * Sent as the frontend sends it (DataSourceWithBackend.mjs:118-122): `?ds_type=<plugin>` and the
 * X-Plugin-Id and X-Datasource-Uid headers naming the datasources of the queries.
 */
export async function grafanaDsQuery(client: GrafanaClient, request: DsQueryRequest) {
  const types = [...new Set(request.queries.map((q) => q.datasource.type))];
  const uids = [...new Set(request.queries.map((q) => q.datasource.uid))];
  return call<DsQueryResponse>(
    client,
    'POST',
    `/api/ds/query?ds_type=${encodeURIComponent(types[0] ?? '')}`,
    request,
    { 'X-Plugin-Id': types.join(', '), 'X-Datasource-Uid': uids.join(', ') },
  );
}

/** A frame has data when some number field holds a finite value (an all-null series is "No data"). */
export function framesHaveData(frames: FrameJson[] = []): boolean {
  return frames.some((frame) => {
    const fields = frame.schema?.fields ?? [];
    return (frame.data?.values ?? []).some(
      (column, i) =>
        fields[i]?.type === 'number' &&
        column.some((v) => v !== null && Number.isFinite(typeof v === 'number' ? v : Number(v))),
    );
  });
}
