// Suite configuration, from __ENV only. Credentials have no defaults: a run without them stops
// at init with one line saying what to set.

export interface SuiteConfig {
  baseUrl: string;
  email: string;
  password: string;
}

export function suiteConfig(env: Record<string, string | undefined>): SuiteConfig {
  const email = env.DEMO_EMAIL;
  const password = env.DEMO_PASSWORD;
  if (!email || !password) {
    throw new Error(
      'DEMO_EMAIL and DEMO_PASSWORD must be set (put them in .env: `npm run env:init`, or pass -e)',
    );
  }
  return { baseUrl: (env.BASE_URL || 'http://localhost:5050').replace(/\/+$/, ''), email, password };
}

export interface ClinicConfig {
  baseUrl: string;
  secureBaseUrl: string;
  adminUser?: string;
  adminPassword?: string;
}

export function clinicConfig(env: Record<string, string | undefined>): ClinicConfig {
  return {
    baseUrl: (env.CLINIC_BASE_URL || 'http://localhost:9966/petclinic/api').replace(/\/+$/, ''),
    secureBaseUrl: (env.CLINIC_SECURE_BASE_URL || 'http://localhost:9967/petclinic/api').replace(/\/+$/, ''),
    adminUser: env.ADMIN_USER,
    adminPassword: env.ADMIN_PASSWORD,
  };
}
