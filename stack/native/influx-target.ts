// Which write API a local InfluxDB speaks, asked of the server itself: GET /ping answers with an
// X-Influxdb-Version header, "1.x" on InfluxDB 1 and "v2.x" (or "2.x") on InfluxDB 2. native/stream.sh
// local runs this and exports what it prints (KEY=VALUE lines, no shell evaluation):
//   1.x: k6's built-in v1 output, `-o influxdb=<base>/<database>`;
//   2.x: the v2 write API through xk6-influxdb with the org, bucket and token of the compose stack
//        (INFLUXDB_ORG, INFLUXDB_BUCKET, INFLUXDB_ADMIN_TOKEN from .env); plain k6 has no v2 output.
// One line on stderr says which. Exit 3 when nothing answers, 2 when a 2.x has no token to use.
//   node --import tsx stack/native/influx-target.ts <url, e.g. http://127.0.0.1:8086/k6>
import { isEntryPoint, loadDotEnv } from '@loadlab/services/start-and-stop';

export interface InfluxTarget {
  /** The -o argument for k6 / the Node runner. */
  output: string;
  api: 'v1' | 'v2';
  /** Variables the engine needs (the v2 output reads K6_INFLUXDB_*). */
  env: Record<string, string>;
  /** The one line telling the user what was picked and why. */
  description: string;
}

export class TargetError extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The server's X-Influxdb-Version, or a TargetError (exit 3) when /ping does not answer. */
export async function influxVersion(base: string): Promise<string> {
  let res: Response;
  try {
    res = await fetch(`${base}/ping`, { signal: AbortSignal.timeout(3000) });
    await res.body?.cancel();
  } catch {
    throw new TargetError(`stack: no InfluxDB answers at ${base}; start one with 'npm run stack:native'`, 3);
  }
  const version = res.headers.get('x-influxdb-version');
  if (!version)
    throw new TargetError(
      `stack: ${base}/ping answered ${res.status} without X-Influxdb-Version: not InfluxDB?`,
      3,
    );
  return version;
}

export function chooseTarget(
  url: string,
  version: string,
  env: Record<string, string | undefined>,
): InfluxTarget {
  const parsed = new URL(url);
  const base = `${parsed.protocol}//${parsed.host}`;
  const major = /^v?(\d+)\./.exec(version)?.[1];
  if (major === '1') {
    const db = decodeURIComponent(parsed.pathname.replace(/^\/+/, '')) || 'k6';
    // The URL as given (credentials and k6's query options such as pushInterval kept), with the database.
    const target = new URL(url);
    target.pathname = `/${encodeURIComponent(db)}`;
    return {
      output: `influxdb=${target.href}`,
      api: 'v1',
      env: {},
      description: `stack: InfluxDB ${version} at ${base} speaks the v1 API: database ${db}, k6's influxdb output`,
    };
  }
  if (major === '2') {
    const token = env.INFLUXDB_ADMIN_TOKEN?.trim();
    if (!token || /^<.*>$/.test(token))
      throw new TargetError(
        `stack: InfluxDB ${version} at ${base} needs a token: set INFLUXDB_ADMIN_TOKEN (the one grafana:up initialised it with; npm run env:init)`,
        2,
      );
    const org = env.INFLUXDB_ORG || 'loadlab';
    const bucket = decodeURIComponent(parsed.pathname.replace(/^\/+/, '')) || env.INFLUXDB_BUCKET || 'k6';
    return {
      output: 'xk6-influxdb',
      api: 'v2',
      env: {
        K6_INFLUXDB_ADDR: base,
        K6_INFLUXDB_ORGANIZATION: org,
        K6_INFLUXDB_BUCKET: bucket,
        K6_INFLUXDB_TOKEN: token,
      },
      description: `stack: InfluxDB ${version} at ${base} speaks the v2 API: org ${org}, bucket ${bucket}, token INFLUXDB_ADMIN_TOKEN, xk6-influxdb output`,
    };
  }
  throw new TargetError(`stack: ${base} runs InfluxDB ${version}; only 1.x and 2.x are supported`, 2);
}

async function main(): Promise<number> {
  const url = process.argv[2];
  if (!url) {
    console.error('usage: influx-target.ts <url, e.g. http://127.0.0.1:8086/k6>');
    return 2;
  }
  loadDotEnv();
  try {
    const base = new URL(url).origin;
    const target = chooseTarget(url, await influxVersion(base), process.env);
    console.error(target.description);
    const lines = { LT_STREAM_OUTPUT: target.output, LT_STREAM_API: target.api, ...target.env };
    for (const [key, value] of Object.entries(lines)) process.stdout.write(`${key}=${value}\n`);
    return 0;
  } catch (error) {
    if (error instanceof TargetError) {
      console.error(error.message);
      return error.exitCode;
    }
    if (error instanceof TypeError) {
      console.error(`stack: "${url}" is not a URL`);
      return 2;
    }
    throw error;
  }
}

if (isEntryPoint(import.meta.url)) process.exitCode = await main();
