// Clinic settings from the environment. No default admin password in source: the secured
// instance refuses to start without ADMIN_PASSWORD (`npm run env:init` writes one to .env).
export interface ClinicConfig {
  securityEnabled: boolean;
  adminUser?: string;
  adminPassword?: string;
  /** Secured instance: /metrics needs the same Basic credentials as the API. */
  protectMetrics?: boolean;
}

import { ConfigError } from '../shared/config-error.js';
import { refuseWeakPassword } from '../shared/weak-password.js';

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
  };
}
