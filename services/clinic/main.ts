// Entry point: `npm run start:clinic` starts the open instance (CLINIC_PORT, 9966) and the
// secured one (CLINIC_SECURE_PORT, 9967), each with its own state; CLINIC_INSTANCE=open|secure
// starts one, secured when CLINIC_SECURITY_ENABLE (or PETCLINIC_SECURITY_ENABLE) is true.
import { loadDotEnv } from '../shared/dotenv.js';
import { createLogger } from '../shared/logger.js';
import { drainOnSignals, listen, portFromEnv, type StartedServer } from '../shared/server.js';
import { createClinicApp } from './app.js';
import { ConfigError, clinicConfigFromEnv, type ClinicConfig } from './config.js';
import { isEntryPoint } from '../shared/entry.js';

/** One instance to start: its port and its configuration. */
export interface ClinicPlan {
  port: number;
  secure: boolean;
  config: ClinicConfig;
}

/**
 * The instances the environment asks for, every setting checked (ConfigError), nothing started:
 * start:services checks all its services' settings before any of them listens.
 */
export function planClinic(env: NodeJS.ProcessEnv): ClinicPlan[] {
  const instance = env.CLINIC_INSTANCE || 'both';
  const ports: { secure: boolean; port: number }[] = [];
  if (instance === 'both') {
    ports.push({ secure: false, port: portFromEnv(env.CLINIC_PORT, 9966, 'CLINIC_PORT') });
    ports.push({ secure: true, port: portFromEnv(env.CLINIC_SECURE_PORT, 9967, 'CLINIC_SECURE_PORT') });
  } else if (instance === 'open' || instance === 'secure') {
    const secure = instance === 'secure' || clinicConfigFromEnv(env).securityEnabled;
    ports.push({
      secure,
      port: secure
        ? portFromEnv(env.CLINIC_SECURE_PORT, 9967, 'CLINIC_SECURE_PORT')
        : portFromEnv(env.CLINIC_PORT, 9966, 'CLINIC_PORT'),
    });
  } else {
    throw new ConfigError(`CLINIC_INSTANCE must be both, open or secure, got "${instance}"`);
  }
  return ports.map(({ secure, port }) => ({
    secure,
    port,
    config: clinicConfigFromEnv({
      ...env,
      CLINIC_SECURITY_ENABLE: String(secure),
      PETCLINIC_SECURITY_ENABLE: undefined,
    }),
  }));
}

export async function startClinic(
  env: NodeJS.ProcessEnv,
  plans: ClinicPlan[] = planClinic(env),
): Promise<StartedServer[]> {
  const logger = createLogger('clinic', env);
  const host = env.CLINIC_HOST || '127.0.0.1';
  const started: StartedServer[] = [];
  try {
    for (const plan of plans) {
      const server = await listen(createClinicApp(plan.config, { logger }), plan.port, host);
      logger.info({ url: server.url, secured: plan.secure }, 'clinic listening');
      started.push(server);
    }
  } catch (error) {
    await Promise.all(started.map((s) => s.close()));
    throw error;
  }
  return started;
}

async function main(): Promise<void> {
  loadDotEnv();
  try {
    const started = await startClinic(process.env);
    drainOnSignals(
      started.map((s) => s.server),
      createLogger('clinic'),
    );
  } catch (error) {
    console.error(`clinic: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
}

if (isEntryPoint(import.meta.url)) void main();
