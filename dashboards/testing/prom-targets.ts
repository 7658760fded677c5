// HTTP targets for the services-dashboard test: the real sandbox and both clinic instances, started
// in-process on random loopback ports, plus a bounded load to give their metrics something to count.
// Given a database URL, both clinic instances keep their state in PostgreSQL (each in its schema), as
// the compose stack runs them, so the pool's gauges are scraped too.
import { startClinic, type StartedServer, startSandbox } from '@loadlab/services';

export interface Target {
  /** The compose `service:port` this server stands for in stack/prometheus.yml. */
  composeTarget: string;
  server: StartedServer;
  /** Paths the bounded load requests (some answer 404 on purpose), and headers to send. */
  paths: string[];
  headers?: Record<string, string>;
}

export interface Targets {
  targets: Target[];
  close(): Promise<void>;
}

const password = `pw-${process.pid}-${Date.now()}`;
const serviceEnv = {
  ...process.env,
  LOG_LEVEL: 'silent',
  DEMO_EMAIL: 'dashboards-test@loadlab.local',
  DEMO_PASSWORD: password,
  ADMIN_USER: 'admin',
  ADMIN_PASSWORD: password,
};

async function startSandboxTarget(): Promise<Target[]> {
  const server = await startSandbox({ ...serviceEnv, PORT: '0', HOST: '127.0.0.1' });
  return [
    { composeTarget: 'sandbox:5050', server, paths: ['/health', '/api/users', '/web/login.html', '/nope'] },
  ];
}

async function startClinicTargets(databaseUrl: string | undefined): Promise<Target[]> {
  const clinics = await startClinic({
    ...serviceEnv,
    CLINIC_HOST: '127.0.0.1',
    CLINIC_PORT: '0',
    CLINIC_SECURE_PORT: '0',
    ...(databaseUrl ? { CLINIC_DB: 'postgres', DATABASE_URL: databaseUrl } : { CLINIC_DB: 'memory' }),
  });
  const [open, secure] = clinics;
  if (!open || !secure) throw new Error('startClinic did not start both instances');
  const basic = `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;
  const paths = [
    '/petclinic/api/owners',
    '/petclinic/api/vets',
    '/petclinic/api/owners/0',
    '/petclinic/actuator/health',
  ];
  return [
    { composeTarget: 'clinic:9966', server: open, paths },
    { composeTarget: 'clinic-secure:9967', server: secure, paths, headers: { authorization: basic } },
  ];
}

/** The sandbox and both clinic instances; the clinic on PostgreSQL when `databaseUrl` is given. */
export async function startTargets(databaseUrl?: string): Promise<Targets> {
  const targets = [...(await startSandboxTarget()), ...(await startClinicTargets(databaseUrl))];
  return {
    targets,
    close: async () => {
      await Promise.all(targets.map((t) => t.server.close()));
    },
  };
}

/** A bounded load: round-robin over every target's paths for `ms`, at most `maxRequests` requests. */
export async function boundedLoad(targets: Target[], ms: number, maxRequests = 5000): Promise<number> {
  const deadline = Date.now() + ms;
  let sent = 0;
  const worker = async () => {
    while (Date.now() < deadline && sent < maxRequests) {
      const target = targets[sent % targets.length]!;
      const path = target.paths[Math.floor(sent / targets.length) % target.paths.length]!;
      sent += 1;
      const response = await fetch(`${target.server.url}${path}`, { headers: target.headers });
      await response.arrayBuffer();
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return sent;
}
