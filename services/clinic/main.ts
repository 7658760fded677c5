// Entry point: `npm run start:clinic` starts the open instance (CLINIC_PORT, 9966) and the
// secured one (CLINIC_SECURE_PORT, 9967), each with its own state; CLINIC_INSTANCE=open|secure
// starts one, secured when CLINIC_SECURITY_ENABLE (or PETCLINIC_SECURITY_ENABLE) is true.
import { loadDotEnv } from '../shared/dotenv.js';
import { createLogger } from '../shared/logger.js';
import { drainOnSignals, listen, portFromEnv, type StartedServer } from '../shared/server.js';
import { createClinicApp } from './app.js';
import { ConfigError, clinicConfigFromEnv, type ClinicConfig, type ClinicDb } from './config.js';
import { isEntryPoint } from '../shared/entry.js';
import { createMemoryStore } from './store/memory.js';
import { createPostgresStore } from './store/postgres.js';
import type { ClinicStore } from './store/types.js';

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

/** The reason a connection failed, without the URL (it may hold a password). */
function connectionProblem(error: unknown): string {
  const e = error as { message?: string; code?: string; errors?: { message?: string }[] };
  // The driver's words when the server asks for a password and none was given.
  if (e.message?.includes('client password must be a string'))
    return 'the server asks for a password: give it in DATABASE_URL or PGPASSWORD';
  return e.message || e.errors?.[0]?.message || e.code || String(error);
}

/** Opens the instance's store; a database that cannot be reached or used is a ConfigError (exit 2). */
export async function openStore(db: ClinicDb = { kind: 'memory' }): Promise<ClinicStore> {
  if (db.kind === 'memory') return createMemoryStore({ seeded: true });
  const where = new URL(db.url);
  try {
    return await createPostgresStore({ url: db.url, schema: db.schema });
  } catch (error) {
    throw new ConfigError(
      `cannot use the database at ${where.hostname}:${where.port || 5432}: ${connectionProblem(error)}`,
    );
  }
}

/** main's view of a start in progress: each instance as it listens, and whether a signal came. */
export interface StartHooks {
  listening?(started: StartedServer & { store: ClinicStore }): void;
  stopping?(): boolean;
}

export async function startClinic(
  env: NodeJS.ProcessEnv,
  plans: ClinicPlan[] = planClinic(env),
  hooks: StartHooks = {},
): Promise<(StartedServer & { store: ClinicStore })[]> {
  const logger = createLogger('clinic', env);
  const host = env.CLINIC_HOST || '127.0.0.1';
  const started: (StartedServer & { store: ClinicStore })[] = [];
  try {
    for (const plan of plans) {
      // The store is ready (connected, migrated, admin stored) before the instance listens.
      const store = await openStore(plan.config.db);
      let server: StartedServer;
      try {
        const app = createClinicApp(plan.config, { logger, store });
        await app.locals.ready;
        // A signal came while this store opened: the others are draining, do not listen now.
        if (hooks.stopping?.()) {
          await store.close();
          break;
        }
        server = await listen(app, plan.port, host);
      } catch (error) {
        await store.close();
        throw error;
      }
      logger.info({ url: server.url, secured: plan.secure, store: store.kind }, 'clinic listening');
      // Closing drains the requests in flight first, then the pool: no acknowledged write is cut.
      const instance = {
        ...server,
        store,
        close: () => server.close().then(() => store.close()),
        release: () => store.close(),
      };
      started.push(instance);
      hooks.listening?.(instance);
    }
  } catch (error) {
    await Promise.all(started.map((s) => s.close()));
    throw error;
  }
  return started;
}

async function main(): Promise<void> {
  loadDotEnv();
  // Signal handlers before anything listens: the open instance may answer seconds before the
  // secured one (a fresh database is migrated twice), and a stop in that window must drain it too.
  // The lists fill as instances listen; the drain reads them when the signal comes.
  const servers: StartedServer['server'][] = [];
  const releases: (() => Promise<void>)[] = [];
  const stopping = drainOnSignals(servers, createLogger('clinic'), () =>
    Promise.all(releases.map((release) => release())).then(() => {}),
  );
  try {
    await startClinic(process.env, planClinic(process.env), {
      listening: (s) => {
        servers.push(s.server);
        releases.push(() => s.store.close());
      },
      stopping,
    });
  } catch (error) {
    console.error(`clinic: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(error instanceof ConfigError ? 2 : 1);
  }
}

if (isEntryPoint(import.meta.url)) void main();
