// HTTP targets for the services-dashboard test: the real sandbox and clinic instances when they are in
// the repository (started in-process on random loopback ports), else stand-ins that expose metrics
// through the same services/shared/metrics.ts both services use, so the same series exist.
import { existsSync } from 'node:fs';
import express from 'express';
import { fileURLToPath } from 'node:url';
import { createHttpMetrics } from '../services/shared/metrics.js';
import { listen, type StartedServer } from '../services/shared/server.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface Target {
  /** The compose `service:port` this server stands for in stack/prometheus.yml. */
  composeTarget: string;
  server: StartedServer;
  /** Requests of the bounded load: paths with expected statuses, and headers to send. */
  paths: string[];
  headers?: Record<string, string>;
}

export interface Targets {
  /** What stood behind the three jobs, e.g. "sandbox: real, clinic: stand-in". */
  source: string;
  targets: Target[];
  close(): Promise<void>;
}

const exists = (file: string) => existsSync(`${ROOT}/${file}`);
const password = `pw-${process.pid}-${Date.now()}`;
const serviceEnv = {
  ...process.env,
  LOG_LEVEL: 'silent',
  DEMO_EMAIL: 'dashboards-test@loadlab.local',
  DEMO_PASSWORD: password,
  ADMIN_USER: 'admin',
  ADMIN_PASSWORD: password,
};
type Start = (env: NodeJS.ProcessEnv) => Promise<StartedServer | StartedServer[]>;

async function startRealSandbox(): Promise<Target[]> {
  const sandboxModule = `${ROOT}/services/sandbox/main.ts`;
  const { startSandbox } = (await import(sandboxModule)) as { startSandbox: Start };
  const server = (await startSandbox({ ...serviceEnv, PORT: '0', HOST: '127.0.0.1' })) as StartedServer;
  return [
    { composeTarget: 'sandbox:5050', server, paths: ['/health', '/api/users', '/web/login.html', '/nope'] },
  ];
}

async function startRealClinics(): Promise<Target[]> {
  const clinicModule = `${ROOT}/services/clinic/main.ts`;
  const { startClinic } = (await import(clinicModule)) as { startClinic: Start };
  const clinics = (await startClinic({
    ...serviceEnv,
    CLINIC_HOST: '127.0.0.1',
    CLINIC_PORT: '0',
    CLINIC_SECURE_PORT: '0',
  })) as StartedServer[];
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

async function startStandIn(composeTarget: string): Promise<Target> {
  const metrics = createHttpMetrics();
  const app = express();
  app.use(metrics.middleware);
  app.get('/metrics', metrics.handler);
  app.get('/health', (_req, res) => void res.json({ status: 'ok' }));
  app.get('/api/items/:id', (req, res) => void res.json({ id: req.params.id }));
  app.get('/api/broken', (_req, res) => void res.status(500).json({ title: 'broken' }));
  const server = await listen(app, 0, '127.0.0.1');
  return {
    composeTarget,
    server,
    paths: ['/health', '/api/items/1', '/api/items/2', '/api/broken', '/nope'],
  };
}

/** The real services where their code is in the repository, stand-ins for the others. */
export async function startTargets(): Promise<Targets> {
  const realSandbox = exists('services/sandbox/main.ts');
  const realClinic = exists('services/clinic/main.ts');
  const targets = [
    ...(realSandbox ? await startRealSandbox() : [await startStandIn('sandbox:5050')]),
    ...(realClinic
      ? await startRealClinics()
      : await Promise.all(['clinic:9966', 'clinic-secure:9967'].map(startStandIn))),
  ];
  const kind = (real: boolean) => (real ? 'real' : 'shared-metrics stand-in');
  return {
    source: `sandbox: ${kind(realSandbox)}, clinics: ${kind(realClinic)}`,
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
