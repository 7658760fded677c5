// The sandbox under hostile input. Every route gets the corpus of services/shared/hostile;
// the sandbox must answer every request, never with a 5xx, with a JSON body on every 4xx, and stay up.
import assert from 'node:assert/strict';
import { hostileCorpus, type RouteUnderTest } from '../shared/hostile/corpus.js';
import { probe, violations } from '../shared/hostile/probe.js';
import { listen } from '../shared/server.js';
import { createSandboxApp } from './app.js';

const CONFIG = {
  demoEmail: 'hostile@loadlab.local',
  demoPassword: 'hostile-secret',
  tokenSecret: 'hostile-key',
  tokenTtlSeconds: 60,
  faults: { enabled: false, latencyMs: 0, errorRate: 0 },
};

const PAGES = ['login', 'dashboard', 'team', 'settings', 'activity'].map((p) => `/web/${p}.html`);

/** Every route the sandbox serves (README's endpoint table). */
export const SANDBOX_ROUTES: RouteUnderTest[] = [
  { method: 'GET', template: '/health' },
  { method: 'POST', template: '/api/auth/login', body: { email: CONFIG.demoEmail, password: 'wrong' } },
  { method: 'GET', template: '/api/users' },
  { method: 'GET', template: '/api/errors/404' },
  { method: 'GET', template: '/api/errors/422' },
  ...[...PAGES, '/web/app.css', '/web/app.js', '/', '/metrics'].map((template) => ({
    method: 'GET',
    template,
  })),
];

describe('sandbox under hostile input', function () {
  this.timeout(120_000);

  it('every route: no 5xx, no hang, JSON on every 4xx, still up', async () => {
    const server = await listen(createSandboxApp(CONFIG), 0, '127.0.0.1');
    try {
      const corpus = hostileCorpus(SANDBOX_ROUTES);
      const outcomes = await probe(server.url, corpus, { timeoutMs: 15_000 });
      assert.deepEqual(violations(outcomes).slice(0, 20), []);
      assert.ok(outcomes.some((o) => o.status === 200));
      assert.equal(
        (Object.prototype as Record<string, unknown>).polluted,
        undefined,
        'no prototype pollution',
      );
      assert.equal((await fetch(`${server.url}/health`)).status, 200);
      console.log(`      ${corpus.length} hostile requests on ${SANDBOX_ROUTES.length} routes`);
    } finally {
      await server.close();
    }
  });

  it('refuses every altered form of an issued token with 401 over HTTP', async () => {
    const server = await listen(createSandboxApp(CONFIG), 0, '127.0.0.1');
    try {
      const login = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ email: CONFIG.demoEmail, password: CONFIG.demoPassword }),
      });
      const { token } = (await login.json()) as { token: string };
      const users = (auth: string) => fetch(`${server.url}/api/users`, { headers: { Authorization: auth } });
      assert.equal((await users(`Bearer ${token}`)).status, 200);
      const sig = token.split('.')[1]!;
      const standard = `${token.split('.')[0]}.${Buffer.from(sig, 'base64url').toString('base64')}`;
      for (const variant of [`${token}=`, `${token}!`, `${token}~`, standard]) {
        const res = await users(`Bearer ${variant}`);
        assert.equal(res.status, 401, variant);
        assert.match(res.headers.get('content-type') ?? '', /^application\/problem\+json/);
      }
    } finally {
      await server.close();
    }
  });
});
