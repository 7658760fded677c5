// A benchmark target in its own process, so the load generator and the server do not share an
// event loop: `node --import tsx bench/lib/serve.ts <kind>` listens on a random loopback port
// and sends the port to its parent over IPC.
import express from 'express';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createClinicApp, createLogger, createSandboxApp, isEntryPoint, listen } from '@loadlab/services';
import { benchStore, storeExpress } from './store-express.js';

export const SANDBOX_BENCH_CREDENTIALS = { email: 'bench@loadlab.local', password: 'bench-secret' };

const HEALTH = JSON.stringify({ status: 'ok' });
const USERS = JSON.stringify({
  users: Array.from({ length: 12 }, (_, i) => ({
    id: i + 1,
    name: `User ${i}`,
    email: `u${i}@x`,
    role: 'viewer',
  })),
});
const LOGIN = JSON.stringify({
  token: 'x'.repeat(120),
  user: { email: 'bench@loadlab.local', name: 'Demo User', role: 'admin' },
});
const OWNER = JSON.stringify({
  firstName: 'George',
  lastName: 'Franklin',
  address: '110 W. Liberty St.',
  city: 'Madison',
  telephone: '6085551023',
  id: 1,
  pets: [],
});

/** The same JSON the real services answer, per path: what a reference server must serve. */
function fixedBody(method: string, path: string): string {
  if (path === '/health') return HEALTH;
  if (path === '/api/users') return USERS;
  if (path === '/api/auth/login' && method === 'POST') return LOGIN;
  return OWNER;
}

const bare: RequestListener = (req, res) => {
  req.resume();
  req.on('end', () => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.end(fixedBody(req.method ?? 'GET', (req.url ?? '/').split('?')[0]!));
  });
};

function minimalExpress(): RequestListener {
  const app = express();
  app.all('/{*path}', (req, res) => {
    req.resume();
    req.on('end', () => res.type('application/json').send(fixedBody(req.method, req.path)));
  });
  return app;
}

const SERVICES = new Set(['sandbox', 'clinic']);

const kinds: Record<string, () => RequestListener | Promise<RequestListener>> = {
  bare: () => bare,
  express: minimalExpress,
  // With a logger at the level the service runs at by default (info), as `start:sandbox` does.
  sandbox: () =>
    createSandboxApp(
      {
        demoEmail: SANDBOX_BENCH_CREDENTIALS.email,
        demoPassword: SANDBOX_BENCH_CREDENTIALS.password,
        tokenSecret: 'bench',
        tokenTtlSeconds: 3600,
        faults: { enabled: false, latencyMs: 0, errorRate: 0 },
      },
      { logger: createLogger('sandbox', { LOG_LEVEL: 'info' }) },
    ),
  clinic: () => createClinicApp({ securityEnabled: false }),
  // The same store work without the clinic's layers, and the clinic on PostgreSQL (BENCH_DATABASE_URL),
  // each in its own schema so their writes do not meet.
  'store-express': async () => storeExpress(await benchStore('memory', '')),
  'clinic-pg': async () =>
    createClinicApp({ securityEnabled: false }, { store: await benchStore('postgres', 'bench_clinic') }),
  'store-express-pg': async () => storeExpress(await benchStore('postgres', 'bench_express')),
};

if (isEntryPoint(import.meta.url)) {
  const make = kinds[process.argv[2] ?? ''];
  if (!make) {
    console.error(`serve.ts: kind must be one of ${Object.keys(kinds).join(', ')}`);
    process.exit(2);
  }
  const kind = process.argv[2]!;
  // The services run behind the shared listen() they start with (Host check, drain bookkeeping), so
  // the benchmark pays what production pays; the references are plain node:http servers.
  if (SERVICES.has(kind)) {
    const started = await listen(await make(), 0, '127.0.0.1');
    process.send?.((started.server.address() as AddressInfo).port);
    process.on('message', () => void started.close().then(() => process.exit(0)));
  } else {
    const server = createServer(await make());
    server.keepAliveTimeout = 60_000;
    server.listen(0, '127.0.0.1', () => process.send?.((server.address() as AddressInfo).port));
    process.on('message', () => server.close(() => process.exit(0)));
  }
  process.on('disconnect', () => process.exit(0));
}
