// Entry point: `npm run start:sandbox`. Loads .env, listens on HOST:PORT (default 127.0.0.1:5050),
// drains in-flight requests on SIGTERM/SIGINT.
import { loadDotEnv } from '../shared/dotenv.js';
import { isEntryPoint } from '../shared/entry.js';
import { createLogger } from '../shared/logger.js';
import { drainOnSignals, listen, portFromEnv, type StartedServer } from '../shared/server.js';
import { createSandboxApp } from './app.js';
import { ConfigError, sandboxConfigFromEnv, type SandboxConfig } from './config.js';

/** The sandbox's settings, every one checked (ConfigError), nothing started. */
export function planSandbox(env: NodeJS.ProcessEnv): { config: SandboxConfig; port: number } {
  return { config: sandboxConfigFromEnv(env), port: portFromEnv(env.PORT, 5050) };
}

export async function startSandbox(
  env: NodeJS.ProcessEnv,
  plan: { config: SandboxConfig; port: number } = planSandbox(env),
): Promise<StartedServer> {
  const logger = createLogger('sandbox', env);
  const app = createSandboxApp(plan.config, { logger });
  const started = await listen(app, plan.port, env.HOST || '127.0.0.1');
  logger.info({ url: started.url }, 'sandbox listening');
  return started;
}

async function main(): Promise<void> {
  loadDotEnv();
  try {
    const started = await startSandbox(process.env);
    drainOnSignals([started.server], createLogger('sandbox'));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`sandbox: ${message}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
}

if (isEntryPoint(import.meta.url)) void main();
