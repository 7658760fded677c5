// InfluxDB outputs with k6's wire format: v1 (`--out influxdb=http://host:8086/db`, the built-in
// output) and v2 (`--out xk6-influxdb`, as xk6-output-influxdb writes, also for InfluxDB Cloud).
// Samples are buffered and written every push interval; a store that is down never stops or slows
// the run: v1 reports each failed or slow flush in k6's lines, v2 at most once per 10 s.
import { formatDuration, parseDuration } from '../metrics/index.js';
import type { Output, OutputContext, Sample } from '../contracts.js';
import { tagsAsFields, toLine } from './line-protocol.js';
import { goFetchFailure } from '../bridge/go-http.js';

interface Target {
  description: string;
  writeUrl: string;
  headers: Record<string, string>;
  fields: Set<string>;
  /** Runs once before the first write (v1 creates its database). */
  prepare?: () => Promise<void>;
  /** k6's `output` field (the built-in v1 output's lines are k6's, one per failed or slow flush). */
  k6Name?: string;
}

const WARN_EVERY_MS = 10_000;
const SLOW_FLUSH =
  'The flush operation took higher than the expected set push interval. If you see this message multiple times then the setup or configuration need to be adjusted to achieve a sustainable rate.';

const STOP_TIMEOUT_MS = 10_000;

function batchingOutput(ctx: OutputContext, target: Target): Output {
  const intervalMs = parseDuration(ctx.env.K6_INFLUXDB_PUSH_INTERVAL || '1s');
  const concurrency = Math.max(1, Number(ctx.env.K6_INFLUXDB_CONCURRENT_WRITES || 4));
  let lines: string[] = [];
  let inFlight = 0;
  const writes = new Set<Promise<void>>();
  let lastWarning = 0;
  let timer: NodeJS.Timeout | undefined;

  const warn = (message: string) => {
    const now = Date.now();
    if (now - lastWarning < WARN_EVERY_MS) return;
    lastWarning = now;
    ctx.warn(`${target.description}: ${message}`);
  };

  // k6's built-in output logs every flush that failed or took longer than the push interval.
  const k6Lines = target.k6Name !== undefined && ctx.log !== undefined;
  const failed = (error: string, fallback: string) => {
    if (k6Lines) ctx.log!('error', "Couldn't write stats", { error, output: target.k6Name! });
    else warn(fallback);
  };

  const write = (body: string): Promise<void> => {
    inFlight += 1;
    const started = performance.now();
    const done = fetch(target.writeUrl, {
      method: 'POST',
      headers: target.headers,
      // Bytes, not a string: fetch would add its own text/plain Content-Type to a string body, where
      // k6's v1 output sends an empty one and xk6-output-influxdb's Go client none.
      body: Buffer.from(body),
      signal: AbortSignal.timeout(STOP_TIMEOUT_MS),
    })
      .then(async (res) => {
        if (res.status !== 204 && res.status !== 200) {
          // Go's InfluxDB client gives the answer's body as its error.
          const text = await res.text();
          failed(text, `write answered ${res.status}: ${text.slice(0, 200)}`);
          return;
        }
        await res.body?.cancel();
        const took = performance.now() - started;
        if (k6Lines && took > intervalMs)
          ctx.log!('warn', SLOW_FLUSH, { output: target.k6Name!, t: formatDuration(took) });
      })
      .catch((error: Error) => {
        const dial = goFetchFailure(error);
        failed(`Post ${JSON.stringify(target.writeUrl)}: ${dial}`, `write failed: ${dial}`);
      })
      .finally(() => {
        inFlight -= 1;
        writes.delete(done);
      });
    writes.add(done);
    return done;
  };

  const flush = () => {
    if (lines.length === 0) return;
    // Beyond the concurrency limit the batch waits for the next tick instead of piling up sockets.
    if (inFlight >= concurrency) return;
    const body = lines.join('\n');
    lines = [];
    void write(body);
  };

  return {
    description: target.description,
    async start() {
      try {
        await target.prepare?.();
      } catch (error) {
        // k6 logs a database it could not create at debug level only: its writes then say more.
        if (!k6Lines) warn(`cannot reach the store: ${(error as Error).message}`);
      }
      timer = setInterval(flush, intervalMs);
      timer.unref();
    },
    addSamples(samples: readonly Sample[]) {
      for (const s of samples) {
        const line = toLine(s, target.fields);
        if (line) lines.push(line);
      }
    },
    async stop() {
      clearInterval(timer);
      while (lines.length > 0) {
        const body = lines.join('\n');
        lines = [];
        await write(body);
      }
      await Promise.all([...writes]);
    },
  };
}

/** `--out influxdb=http://[user:pass@]host:8086/db[?pushInterval=..]`, K6_INFLUXDB_* as k6 reads them. */
export function createInfluxDbV1Output(ctx: OutputContext): Output {
  const raw = ctx.argument || ctx.env.K6_INFLUXDB_ADDR || 'http://localhost:8086';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`influxdb output: invalid URL "${raw}"`);
  }
  const db = decodeURIComponent(url.pathname.replace(/^\/+/, '')) || ctx.env.K6_INFLUXDB_DB || 'k6';
  const user = decodeURIComponent(url.username) || ctx.env.K6_INFLUXDB_USERNAME;
  const password = decodeURIComponent(url.password) || ctx.env.K6_INFLUXDB_PASSWORD;
  const query = url.searchParams;
  if (query.get('pushInterval')) ctx.env.K6_INFLUXDB_PUSH_INTERVAL = query.get('pushInterval')!;
  const base = `${url.protocol}//${url.host}`;
  const headers: Record<string, string> = { 'User-Agent': 'k6', 'Content-Type': '' };
  if (user) headers.Authorization = `Basic ${Buffer.from(`${user}:${password ?? ''}`).toString('base64')}`;
  const params = new URLSearchParams({
    consistency: query.get('consistency') ?? ctx.env.K6_INFLUXDB_CONSISTENCY ?? '',
    db,
    precision: 'ns',
    rp: query.get('retention') ?? ctx.env.K6_INFLUXDB_RETENTION ?? '',
  });
  return batchingOutput(ctx, {
    description: `InfluxDBv1 (${base})`,
    k6Name: 'InfluxDBv1',
    writeUrl: `${base}/write?${params}`,
    headers,
    fields: tagsAsFields(
      query.getAll('tagsAsFields').join(',') || ctx.env.K6_INFLUXDB_TAGS_AS_FIELDS,
      'vu,iter,url',
    ),
    prepare: async () => {
      const res = await fetch(`${base}/query?${new URLSearchParams({ q: `CREATE DATABASE "${db}"` })}`, {
        method: 'POST',
        headers,
        signal: AbortSignal.timeout(5000),
      });
      await res.body?.cancel();
    },
  });
}

/** `--out xk6-influxdb[=http://host:8086[/bucket]]` with K6_INFLUXDB_ADDR/ORGANIZATION/BUCKET/TOKEN. */
export function createInfluxDbV2Output(ctx: OutputContext): Output {
  const raw = ctx.argument || ctx.env.K6_INFLUXDB_ADDR || 'http://localhost:8086';
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`xk6-influxdb output: invalid URL "${raw}"`);
  }
  const bucket = url.pathname.replace(/^\/+/, '') || ctx.env.K6_INFLUXDB_BUCKET;
  if (!bucket) throw new Error('xk6-influxdb output: the Bucket option is required (K6_INFLUXDB_BUCKET)');
  const base = `${url.protocol}//${url.host}`;
  // As influxdb-client-go v2.14 (xk6-output-influxdb's client) sends it: Authorization only, no
  // Content-Type, no gzip (its default; the output never turns gzip on).
  const headers: Record<string, string> = {};
  if (ctx.env.K6_INFLUXDB_TOKEN) headers.Authorization = `Token ${ctx.env.K6_INFLUXDB_TOKEN}`;
  const params = new URLSearchParams({
    bucket,
    org: ctx.env.K6_INFLUXDB_ORGANIZATION ?? '',
    precision: 'ns',
  });
  return batchingOutput(ctx, {
    description: `InfluxDBv2 (${base})`,
    writeUrl: `${base}/api/v2/write?${params}`,
    headers,
    fields: tagsAsFields(ctx.env.K6_INFLUXDB_TAGS_AS_FIELDS, 'vu:int,iter:int,url'),
  });
}
