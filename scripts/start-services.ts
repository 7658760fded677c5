// Starts the sandbox (5050) and both clinic instances (9966 open, 9967 secured) in one process,
// the way `npm run lab` and the native stack need them, and drains all of them on Ctrl-C.
import {
  ConfigError,
  createLogger,
  drainOnSignals,
  isEntryPoint,
  loadDotEnv,
  planClinic,
  planSandbox,
  startClinic,
  type StartedServer,
  type StartHooks,
  startSandbox,
} from '@loadlab/services';

export async function startServices(
  env: NodeJS.ProcessEnv,
  hooks: { listening?(started: StartedServer): void; stopping?(): boolean } = {},
): Promise<StartedServer[]> {
  // Every setting of every service is checked before any of them listens: a bad one stops the
  // command before anything has started.
  const sandboxPlan = planSandbox(env);
  const clinicPlans = planClinic(env);
  const sandbox = await startSandbox(env, sandboxPlan);
  hooks.listening?.(sandbox);
  try {
    const clinicHooks: StartHooks = { listening: (s) => hooks.listening?.(s), stopping: hooks.stopping };
    return [sandbox, ...(await startClinic(env, clinicPlans, clinicHooks))];
  } catch (error) {
    await sandbox.close();
    throw error;
  }
}

async function main(): Promise<void> {
  loadDotEnv();
  const logger = createLogger('services');
  // Handlers before the first service listens (the clinic may take seconds to migrate): every stop
  // drains what is already listening. The list fills as services start.
  const started: StartedServer[] = [];
  const servers: StartedServer['server'][] = [];
  const stopping = drainOnSignals(servers, logger, () =>
    Promise.all(started.map((s) => s.release?.())).then(() => {}),
  );
  try {
    await startServices(process.env, {
      listening: (s) => {
        started.push(s);
        servers.push(s.server);
      },
      stopping,
    });
    // Each service has said where it listens; one line says they are all up.
    if (!stopping()) logger.info({ services: started.length }, 'all services ready');
  } catch (error) {
    // Config problems (a missing password, a port in use) deserve one line, not a stack, and the
    // exit codes of start:sandbox and start:clinic: 2 for a configuration error, 1 otherwise.
    console.error(`start:services: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
}

if (isEntryPoint(import.meta.url)) void main();
