// @loadlab/services/start-and-stop: what the services' entry points use to start and stop (a .env file, "am I
// the entry point", one-line configuration errors, listening and draining, their logger), light enough
// for the lab's own commands to reuse without loading either app.
export { drainOnSignals, listen, portFromEnv, type StartedServer } from './shared/server.js';
export { ConfigError } from './shared/config-error.js';
export { loadDotEnv } from './shared/dotenv.js';
export { isEntryPoint } from './shared/entry.js';
export { createLogger } from './shared/logger.js';
