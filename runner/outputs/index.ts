// `-o/--out` and K6_* output settings -> output instances. Modules load lazily so a run without
// InfluxDB or the dashboard never pays for them.
import type { Output, OutputContext } from '../types.js';

export class OutputConfigError extends Error {}

type Factory = (ctx: OutputContext) => Output;

const FACTORIES: Record<string, () => Promise<Factory>> = {
  json: async () => (await import('./json.js')).createJsonOutput,
  influxdb: async () => (await import('./influxdb.js')).createInfluxDbV1Output,
  'xk6-influxdb': async () => (await import('./influxdb.js')).createInfluxDbV2Output,
};

/** Parses `json=file`, `influxdb=http://...`, `xk6-influxdb` into outputs. */
export async function createOutputs(
  outs: string[],
  base: Omit<OutputContext, 'argument'>,
): Promise<Output[]> {
  const outputs: Output[] = [];
  for (const out of outs) {
    const at = out.indexOf('=');
    const name = at < 0 ? out : out.slice(0, at);
    const argument = at < 0 ? '' : out.slice(at + 1);
    if (name === 'web-dashboard') continue; // handled by dashboardFromEnv
    const load = FACTORIES[name];
    if (!load)
      throw new OutputConfigError(
        `invalid output type '${name}', available types are: ${[...Object.keys(FACTORIES), 'web-dashboard'].join(', ')}`,
      );
    outputs.push((await load())({ ...base, argument }));
  }
  return outputs;
}

/** K6_WEB_DASHBOARD=true or `-o web-dashboard`: the live dashboard with its optional export. */
export async function dashboardOutput(
  outs: string[],
  base: Omit<OutputContext, 'argument'>,
): Promise<Output | undefined> {
  const env = base.env;
  if (
    env.K6_WEB_DASHBOARD !== 'true' &&
    !outs.some((o) => o === 'web-dashboard' || o.startsWith('web-dashboard='))
  )
    return undefined;
  const { createDashboardOutput, parsePeriod } = await import('../../report/live/index.js');
  return createDashboardOutput({
    ...base,
    argument: '',
    host: env.K6_WEB_DASHBOARD_HOST || '127.0.0.1',
    port: Number(env.K6_WEB_DASHBOARD_PORT || 5665),
    exportPath: env.K6_WEB_DASHBOARD_EXPORT || undefined,
    period: parsePeriod(env.K6_WEB_DASHBOARD_PERIOD),
    open: env.K6_WEB_DASHBOARD_OPEN === 'true',
  });
}
