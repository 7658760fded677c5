// `npm run stack:verify -- --cloud <testid>`: reads a run streamed to InfluxDB Cloud (or any InfluxDB 2)
// back through the v2 query API, with the same K6_INFLUXDB_* variables k6's xk6-influxdb output wrote
// it with. Cloud offers Flux on the v2 API, so the count is the same Flux stack:verify sends locally.
import type { CheckResult } from './checks.js';
import { fluxCountOfRun, fluxPointCount } from './influx2.js';

export const CLOUD_VARIABLES = [
  'K6_INFLUXDB_ADDR',
  'K6_INFLUXDB_ORGANIZATION',
  'K6_INFLUXDB_BUCKET',
  'K6_INFLUXDB_TOKEN',
] as const;

/** The variables that are missing, in the order k6 documents them. */
export function missingCloudVariables(env: Record<string, string | undefined>): string[] {
  return CLOUD_VARIABLES.filter((name) => !env[name]);
}

/** The run's points over the last `hours` (a CI job reads back what it streamed minutes before). */
export async function cloudCheck(
  env: Record<string, string | undefined>,
  testid: string,
  hours = 6,
): Promise<CheckResult> {
  const name = 'influxdb cloud points of the run (Flux, /api/v2/query)';
  const target = {
    url: env.K6_INFLUXDB_ADDR!,
    token: env.K6_INFLUXDB_TOKEN!,
    org: env.K6_INFLUXDB_ORGANIZATION!,
    bucket: env.K6_INFLUXDB_BUCKET!,
  };
  const now = Date.now();
  try {
    const points = await fluxPointCount(
      target,
      fluxCountOfRun(target.bucket, testid, now - hours * 3_600_000, now),
    );
    return {
      name,
      ok: points > 0,
      detail: `${points} points with testid ${testid} in bucket ${target.bucket}`,
    };
  } catch (error) {
    return { name, ok: false, detail: (error as Error).message.split('\n')[0] ?? '' };
  }
}
