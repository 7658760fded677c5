// Refuses to go on when required environment variables are missing (unset, blank, or still a
// `<placeholder>` copied from .env.example): one line naming all of them, exit 2. Reads .env first (without overriding what is set), as the run scripts do.
//   node --import tsx scripts/require-env.ts K6_INFLUXDB_ADDR K6_INFLUXDB_TOKEN ...
import { loadDotEnv } from '@loadlab/services/start-and-stop';

/** `.env.example` marks values to fill in as `<...>`; such a value is as good as none. */
const PLACEHOLDER = /^<[^>]*>$|:\/\/<[^>]*>/;

export function missingVariables(names: readonly string[], env: NodeJS.ProcessEnv): string[] {
  return names.filter((name) => {
    const value = (env[name] ?? '').trim();
    return value === '' || PLACEHOLDER.test(value);
  });
}

/** What `scripts/require-env.ts NAME...` does. */
export function requireEnvCommand(): number {
  const names = process.argv.slice(2);
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
