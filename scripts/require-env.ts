// `node --import tsx scripts/require-env.ts NAME...`: refuses to go on when a required environment
// variable is missing (lib/missing-variables.ts says which): one line naming all of them, exit 2. Reads
// .env first (without overriding what is set), as the run scripts do.
import { loadDotEnv } from '@loadlab/services/start-and-stop';
import { missingVariables } from './lib/missing-variables.js';

function requireEnv(names: readonly string[]): number {
  if (names.length === 0) {
    console.error('require-env: name the variables to check, e.g. require-env.ts K6_INFLUXDB_TOKEN');
    return 2;
  }
  loadDotEnv();
  const missing = missingVariables(names, process.env);
  if (missing.length > 0) {
    console.error(`require-env: missing ${missing.join(', ')} (set them in the environment or in .env)`);
    return 2;
  }
  return 0;
}

process.exit(requireEnv(process.argv.slice(2)));
