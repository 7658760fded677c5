// Clinic settings from the environment. No default admin password in source: the secured
// instance refuses to start without ADMIN_PASSWORD (`npm run env:init` writes one to .env).
import { ConfigError } from '../shared/config-error.js';
import { refuseWeakPassword } from '../shared/weak-password.js';
/** Where the instance keeps its state: in memory (the default) or in a PostgreSQL schema of its own. */
export type ClinicDb = { kind: 'memory' } | { kind: 'postgres'; url: string; schema: string };

export interface ClinicConfig {
  securityEnabled: boolean;
  db?: ClinicDb;
  adminUser?: string;
  adminPassword?: string;
  /** Secured instance: /metrics needs the same Basic credentials as the API. */
  protectMetrics?: boolean;
}

export { ConfigError };

export function clinicConfigFromEnv(env: NodeJS.ProcessEnv): ClinicConfig {
  // An empty value counts as unset; TRUE/False are accepted as Spring's relaxed binding does.
  const flag = (env.CLINIC_SECURITY_ENABLE || env.PETCLINIC_SECURITY_ENABLE || 'false').toLowerCase();
  if (flag !== 'true' && flag !== 'false') {
    throw new ConfigError(`CLINIC_SECURITY_ENABLE must be true or false, got "${flag}"`);
  }
  const securityEnabled = flag === 'true';
  if (securityEnabled && !env.ADMIN_PASSWORD) {
    throw new ConfigError(
      'the secured clinic needs ADMIN_USER and ADMIN_PASSWORD (run `npm run env:init` to create a .env)',
    );
  }
  if (securityEnabled) refuseWeakPassword(env, 'ADMIN_PASSWORD');
  const metricsFlag = (env.CLINIC_METRICS_AUTH || 'false').toLowerCase();
  if (metricsFlag !== 'true' && metricsFlag !== 'false') {
    throw new ConfigError(`CLINIC_METRICS_AUTH must be true or false, got "${metricsFlag}"`);
  }
  return {
    securityEnabled,
    adminUser: env.ADMIN_USER || 'admin',
    adminPassword: env.ADMIN_PASSWORD,
    protectMetrics: metricsFlag === 'true',
    db: clinicDbFromEnv(env, securityEnabled),
  };
}

/**
 * CLINIC_DB=memory (default) or postgres with DATABASE_URL; the open and secured instances use the
 * schemas clinic_open and clinic_secure, so they keep separate state as in memory.
 */
export function clinicDbFromEnv(env: NodeJS.ProcessEnv, securityEnabled: boolean): ClinicDb {
  const kind = (env.CLINIC_DB || 'memory').toLowerCase();
  if (kind === 'memory') return { kind };
  if (kind !== 'postgres') throw new ConfigError(`CLINIC_DB must be memory or postgres, got "${kind}"`);
  const url = env.DATABASE_URL;
  if (!url)
    throw new ConfigError('CLINIC_DB=postgres needs DATABASE_URL (postgresql://user:password@host:port/db)');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigError('DATABASE_URL is not a URL (postgresql://user:password@host:port/db)');
  }
  if (parsed.protocol !== 'postgresql:' && parsed.protocol !== 'postgres:')
    throw new ConfigError(`DATABASE_URL must start with postgresql://, got "${parsed.protocol}//"`);
  // A copied .env.example would otherwise fail later as a refused login, which hides the cause.
  if (/^<.*>$/.test(decodeURIComponent(parsed.password)))
    throw new ConfigError(
      "DATABASE_URL's password is still the placeholder from .env.example: put your database's password there",
    );
  return { kind, url, schema: securityEnabled ? 'clinic_secure' : 'clinic_open' };
}
