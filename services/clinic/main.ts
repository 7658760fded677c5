// Entry point: `npm run start:clinic` starts the open instance (CLINIC_PORT, 9966) and the
// secured one (CLINIC_SECURE_PORT, 9967), each with its own state; CLINIC_INSTANCE=open|secure
// starts one, secured when CLINIC_SECURITY_ENABLE (or PETCLINIC_SECURITY_ENABLE) is true.
import { loadDotEnv } from '../shared/dotenv.js';
import { createLogger } from '../shared/logger.js';
import { drainOnSignals, listen, portFromEnv, type StartedServer } from '../shared/server.js';
import { createClinicApp } from './app.js';
import { ConfigError, clinicConfigFromEnv } from './config.js';
import { isEntryPoint } from '../shared/entry.js';

export async function startClinic(env: NodeJS.ProcessEnv): Promise<StartedServer[]> {
  const logger = createLogger('clinic', env);
  const host = env.CLINIC_HOST || '127.0.0.1';
  const instance = env.CLINIC_INSTANCE || 'both';
  const plans: { secure: boolean; port: number }[] = [];
  if (instance === 'both') {
    plans.push({ secure: false, port: portFromEnv(env.CLINIC_PORT, 9966, 'CLINIC_PORT') });
    plans.push({ secure: true, port: portFromEnv(env.CLINIC_SECURE_PORT, 9967, 'CLINIC_SECURE_PORT') });
  } else if (instance === 'open' || instance === 'secure') {
    const secure = instance === 'secure' || clinicConfigFromEnv(env).securityEnabled;
    plans.push({
      secure,
      port: secure
        ? portFromEnv(env.CLINIC_SECURE_PORT, 9967, 'CLINIC_SECURE_PORT')
        : portFromEnv(env.CLINIC_PORT, 9966, 'CLINIC_PORT'),
    });
  } else {
    throw new ConfigError(`CLINIC_INSTANCE must be both, open or secure, got "${instance}"`);
  }
  const started: StartedServer[] = [];
  try {
    for (const plan of plans) {
      const config = clinicConfigFromEnv({
        ...env,
        CLINIC_SECURITY_ENABLE: String(plan.secure),
        PETCLINIC_SECURITY_ENABLE: undefined,
      });
      const server = await listen(createClinicApp(config, { logger }), plan.port, host);
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
