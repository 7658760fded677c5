// Sandbox settings, read once from the environment. Credentials have no defaults in source:
// `npm run env:init` (or `npm run lab`) writes them to a private .env.
import { randomBytes } from 'node:crypto';

export interface FaultDefaults {
  /** Only when true do fault headers, query parameters or defaults have any effect. */
  enabled: boolean;
  latencyMs: number;
  errorRate: number;
}

export interface SandboxConfig {
  demoEmail: string;
  demoPassword: string;
  /** HMAC key for tokens; random per process when unset, so tokens die with the process. */
  tokenSecret: string;
  tokenTtlSeconds: number;
  faults: FaultDefaults;
}

import { ConfigError } from '../shared/config-error.js';
import { refuseWeakPassword } from '../shared/weak-password.js';

export { ConfigError };

export const MAX_FAULT_LATENCY_MS = 10_000;

function numberFrom(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) {
    throw new ConfigError(`${name} must be a number from ${min} to ${max}, got "${raw}"`);
  }
  return value;
}

export function sandboxConfigFromEnv(env: NodeJS.ProcessEnv): SandboxConfig {
  const demoEmail = env.DEMO_EMAIL;
  const demoPassword = env.DEMO_PASSWORD;
  if (!demoEmail || !demoPassword) {
    throw new ConfigError(
      'DEMO_EMAIL and DEMO_PASSWORD must be set (run `npm run env:init` to create a .env)',
    );
  }
  refuseWeakPassword(env, 'DEMO_PASSWORD');
  return {
    demoEmail,
    demoPassword,
    tokenSecret: env.SANDBOX_TOKEN_SECRET || randomBytes(32).toString('base64url'),
    tokenTtlSeconds: numberFrom(env, 'SANDBOX_TOKEN_TTL_SECONDS', 3600, 1, 30 * 24 * 3600),
    faults: {
      enabled: env.SANDBOX_FAULTS === 'true',
      latencyMs: numberFrom(env, 'SANDBOX_FAULT_LATENCY_MS', 0, 0, MAX_FAULT_LATENCY_MS),
      errorRate: numberFrom(env, 'SANDBOX_FAULT_ERROR_RATE', 0, 0, 1),
    },
  };
}
