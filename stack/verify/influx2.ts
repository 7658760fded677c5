// What stack:verify asks InfluxDB 2 directly (http://localhost:8086 from the host), read off
// influxdata/influxdb at v2.7.12 (the compose image's version):
// - InfluxQL through the 1.x-compatible /query (http/legacy/influxqld_handler.go:67-68 reads `q`,
//   :152 `db`, mapped to the bucket by the DBRP the stack's init hook creates), authorised with
//   `Authorization: Token <token>` (http/legacy/influx1x_authentication_handler.go:107-114). The same
//   request works on InfluxDB 1.x, which ignores the header when auth is off: the tests use a real 1.6.
// - Flux through POST /api/v2/query?org=<org> (http/query_handler.go:117), a JSON body {query, type}
//   (http/query.go:25-28, type must be "flux" :87-89), answered as annotated CSV.
export interface InfluxTarget {
  url: string;
  token: string;
  org: string;
  bucket: string;
}

export interface InfluxSeriesJson {
  name?: string;
  columns?: string[];
  values?: unknown[][];
}

/** One InfluxQL statement over /query; throws with InfluxDB's own error text. */
export async function influxql(target: InfluxTarget, q: string): Promise<InfluxSeriesJson[]> {
  const body = new URLSearchParams({ db: target.bucket, q, epoch: 'ms' });
  const response = await fetch(`${target.url.replace(/\/$/, '')}/query`, {
    method: 'POST',
    headers: { Authorization: `Token ${target.token}` },
    body,
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw new Error(`no answer from InfluxDB at ${target.url} (${error.message})`);
  });
  const text = await response.text();
  let json: { results?: Array<{ series?: InfluxSeriesJson[]; error?: string }>; error?: string };
  try {
    json = JSON.parse(text) as typeof json;
  } catch {
    throw new Error(`InfluxQL /query: HTTP ${response.status}: ${text.slice(0, 200)}`);
  }
  const error = json.error ?? json.results?.[0]?.error;
  if (!response.ok || error) throw new Error(`InfluxQL /query: HTTP ${response.status}: ${error ?? text}`);
  return json.results?.[0]?.series ?? [];
}

/** A string inside InfluxQL single quotes. */
export function influxqlString(value: string): string {
  return `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

/** A string inside Flux double quotes. */
export function fluxString(value: string): string {
  return `"${value.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\$\{/g, '\\${')}"`;
}

/** The measurements the run wrote (its testid tag), through InfluxQL as the dashboard reads them. */
export async function measurementsOfRun(target: InfluxTarget, testid: string): Promise<Set<string>> {
  const series = await influxql(target, `SHOW MEASUREMENTS WHERE "testid" = ${influxqlString(testid)}`);
  return new Set((series[0]?.values ?? []).map((row) => String(row[0])));
}

/**
 * The Flux that counts the run's points: k6's v2 output writes each sample's value as field `value`
 * (the `url` string field is left out, so count() sees one type).
 */
export function fluxCountOfRun(bucket: string, testid: string, fromMs: number, toMs: number): string {
  return [
    `from(bucket: ${fluxString(bucket)})`,
    `  |> range(start: ${new Date(fromMs).toISOString()}, stop: ${new Date(toMs).toISOString()})`,
    `  |> filter(fn: (r) => r.testid == ${fluxString(testid)} and r._field == "value")`,
    '  |> group()',
    '  |> count()',
  ].join('\n');
}

/** Reads the `_value` column of annotated CSV (the first table); comment and blank lines are skipped. */
export function csvValues(csv: string): string[] {
  const rows = csv
    .split(/\r?\n/)
    .filter((line) => line && !line.startsWith('#'))
    .map((line) => line.split(','));
  const header = rows[0] ?? [];
  const column = header.indexOf('_value');
  if (column < 0) return [];
  return rows
    .slice(1)
    .filter((row) => row.join(',') !== header.join(','))
    .map((row) => row[column] ?? '');
}

/** The run's point count through the v2 query API (Flux); throws with InfluxDB's error text. */
export async function fluxPointCount(target: InfluxTarget, flux: string): Promise<number> {
  const url = `${target.url.replace(/\/$/, '')}/api/v2/query?org=${encodeURIComponent(target.org)}`;
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      Authorization: `Token ${target.token}`,
      'Content-Type': 'application/json',
      Accept: 'application/csv',
    },
    body: JSON.stringify({ query: flux, type: 'flux' }),
    signal: AbortSignal.timeout(30_000),
  }).catch((error: Error) => {
    throw new Error(`no answer from InfluxDB at ${target.url} (${error.message})`);
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`Flux /api/v2/query: HTTP ${response.status}: ${text.slice(0, 300)}`);
  return csvValues(text).reduce((sum, v) => sum + (Number(v) || 0), 0);
}
