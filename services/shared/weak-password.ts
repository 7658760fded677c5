// A service must not listen with the placeholder of .env.example or a password every scanner tries
// first. The refusal is a ConfigError (one line, exit 2); LOADLAB_THROWAWAY_DEMO=true lifts it for a
// demo that nobody else can reach.
import { ConfigError } from './config-error.js';

export const THROWAWAY_DEMO = 'LOADLAB_THROWAWAY_DEMO';

/** The first passwords a credential-stuffing list tries, and the defaults of the tools around. */
const KNOWN_DEFAULTS = new Set([
  'password',
  'password1',
  'password123',
  'passw0rd',
  'admin',
  'admin123',
  'administrator',
  'root',
  'toor',
  'changeme',
  'changeit',
  'secret',
  'default',
  'demo',
  'test',
  'guest',
  'letmein',
  'welcome',
  'qwerty',
  '123456',
  '12345678',
  '123456789',
  'petclinic',
  'loadlab',
]);

/** Throws a ConfigError when the variable holds a placeholder (`<choose-a-password>`) or a known
 * default, unless the environment says this is a throwaway demo. Unset values are left to the caller. */
export function refuseWeakPassword(env: NodeJS.ProcessEnv, name: string): void {
  const value = env[name];
  if (!value || env[THROWAWAY_DEMO] === 'true') return;
  // Spaces around a default do not make it another password to a guessing list (' admin').
  const bare = value.trim();
  const why = /^<.*>$/.test(bare)
    ? 'is still the placeholder from .env.example'
    : bare === '' || KNOWN_DEFAULTS.has(bare.toLowerCase())
      ? 'is a well-known default password'
      : undefined;
  if (why) {
    throw new ConfigError(
      `${name} ${why}: choose another (or delete the line and run \`npm run env:init\`); ` +
        `${THROWAWAY_DEMO}=true allows it for a throwaway demo`,
    );
  }
}
