// `-o/--out` and K6_* output settings -> output instances. Modules load lazily so a run without
// InfluxDB or the dashboard never pays for them.
import type { Output, OutputContext } from '../contracts.js';

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

/** Builds the live web dashboard from the run's context (K6_WEB_DASHBOARD_* are in `base.env`). */
export type DashboardFactory = (base: Omit<OutputContext, 'argument'>) => Promise<Output>;

let dashboardFactory: DashboardFactory | undefined;

/**
 * The web dashboard is an extension, as in k6 (xk6-dashboard, built in there): the lab's `loadlab`
 * (bin/loadlab.js) registers the report's live dashboard here, so the runner itself imports nothing
 * of the report.
 */
export function registerDashboard(factory: DashboardFactory): void {
  dashboardFactory = factory;
}

/** K6_WEB_DASHBOARD=true or `-o web-dashboard`: the registered live dashboard with its optional export. */
export async function dashboardOutput(
  outs: string[],
  base: Omit<OutputContext, 'argument'>,
): Promise<Output | undefined> {
  if (
    base.env.K6_WEB_DASHBOARD !== 'true' &&
    !outs.some((o) => o === 'web-dashboard' || o.startsWith('web-dashboard='))
  )
    return undefined;
  if (!dashboardFactory)
    throw new OutputConfigError(
      "the web-dashboard output is not in this build: run the lab's loadlab (bin/loadlab.js), which registers it",
    );
  return dashboardFactory(base);
}
