// The project's own services on free loopback ports, as the suite's end-to-end tests load them:
// the sandbox (and, on request, one with fault injection on), the open and the secured clinic.
import {
  createClinicApp,
  createSandboxApp,
  listen,
  type SandboxConfig,
  type StartedServer,
} from '@loadlab/services';

const CREDENTIALS = { demoEmail: 'e2e@loadlab.local', demoPassword: 'e2e-secret' };
const ADMIN = { user: 'e2e-admin', password: 'e2e-admin-secret' };

const sandboxConfig = (faults: SandboxConfig['faults']): SandboxConfig => ({
  ...CREDENTIALS,
  tokenSecret: 'e2e',
  tokenTtlSeconds: 600,
  faults,
});

export interface SuiteServices {
  sandbox: StartedServer;
  /** Half its answers are injected 5xx: present only when asked for. */
  faulty?: StartedServer;
  clinic: StartedServer;
  clinicSecure: StartedServer;
  /** The suite's variables for a run against `baseUrl` (default: the healthy sandbox). */
  env(baseUrl?: string, extra?: Record<string, string>): Record<string, string>;
  close(): Promise<void>;
}

export async function startSuiteServices(opts: { faulty?: boolean } = {}): Promise<SuiteServices> {
  const started: StartedServer[] = [];
  const start = async (server: Promise<StartedServer>) => {
    const s = await server;
    started.push(s);
    return s;
  };
  const close = async () => {
    await Promise.all(started.map((s) => s.close()));
  };
  try {
    const sandbox = await start(
      listen(createSandboxApp(sandboxConfig({ enabled: false, latencyMs: 0, errorRate: 0 })), 0, '127.0.0.1'),
    );
    const faulty = opts.faulty
      ? await start(
          listen(
            createSandboxApp(sandboxConfig({ enabled: true, latencyMs: 0, errorRate: 0.5 })),
            0,
            '127.0.0.1',
          ),
        )
      : undefined;
    const clinic = await start(listen(createClinicApp({ securityEnabled: false }), 0, '127.0.0.1'));
    const clinicSecure = await start(
      listen(
        createClinicApp({ securityEnabled: true, adminUser: ADMIN.user, adminPassword: ADMIN.password }),
        0,
        '127.0.0.1',
      ),
    );
    const env = (baseUrl = sandbox.url, extra: Record<string, string> = {}) => ({
      BASE_URL: baseUrl,
      DEMO_EMAIL: CREDENTIALS.demoEmail,
      DEMO_PASSWORD: CREDENTIALS.demoPassword,
      CLINIC_BASE_URL: `${clinic.url}/petclinic/api`,
      CLINIC_SECURE_BASE_URL: `${clinicSecure.url}/petclinic/api`,
      ADMIN_USER: ADMIN.user,
      ADMIN_PASSWORD: ADMIN.password,
      ...extra,
    });
    return { sandbox, faulty, clinic, clinicSecure, env, close };
  } catch (error) {
    await close();
    throw error;
  }
}
