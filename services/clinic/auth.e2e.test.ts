// Password checks that cannot stall the process or tell users apart, and the 401
// and /metrics of the secured instance.
import assert from 'node:assert/strict';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { freePort } from '../../devkit/processes.js';
import { startScript, untilHealthy, type ScriptProcess } from '../../devkit/script-process.js';
import { authenticate, createPasswordChecker, hashPassword } from './security.js';
import { createMemoryStore } from './store/memory.js';
import express from 'express';
import request from 'supertest';
import { API, checkedClient } from './test-client.js';

const contract = loadContract();

/** Both instances in one process (main.ts), on free ports, in an empty folder, once the open one answers. */
async function startClinicProcess(
  env: Record<string, string>,
): Promise<{ proc: ScriptProcess; openUrl: string; secureUrl: string }> {
  const [open, secure] = [await freePort(), await freePort()];
  const proc = startScript('services/clinic/main.ts', {
    env: { CLINIC_PORT: String(open), CLINIC_SECURE_PORT: String(secure), ...env },
  });
  const openUrl = `http://127.0.0.1:${open}`;
  await untilHealthy(proc, `${openUrl}/petclinic/actuator/health`);
  return { proc, openUrl, secureUrl: `http://127.0.0.1:${secure}` };
}
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

describe('clinic authentication', function () {
  this.timeout(30_000);

  it('costs one key derivation for an unknown user, as for a wrong password', async () => {
    const checker = createPasswordChecker();
    const stored = hashPassword('right');
    const before = checker.derivations;
    assert.equal(await checker.check(undefined, 'anything'), false);
    assert.equal(checker.derivations - before, 1, 'unknown user: one derivation');
    assert.equal(await checker.check(stored, 'wrong'), false);
    assert.equal(await checker.check('not-a-hash', 'wrong'), false);
    assert.equal(await checker.check(stored, 'right'), true);
    assert.equal(checker.derivations - before, 4);
  });

  it('answers 401 as a problem detail with the Basic challenge, the same for unknown users and wrong passwords', async () => {
    const app = createClinicApp(
      { securityEnabled: true, adminUser: 'boss', adminPassword: 'boss-secret' },
      { contract },
    );
    const c = checkedClient(app);
    const bodies = [];
    for (const auth of [undefined, basic('boss', 'wrong'), basic('nobody', 'boss-secret'), 'Basic !!!']) {
      const test = c.get(`${API}/owners`);
      const res = await (auth ? test.set('Authorization', auth) : test).expect(401);
      assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
      assert.equal(res.headers['www-authenticate'], 'Basic realm="Realm"');
      assert.equal(res.body.status, 401);
      bodies.push(res.body.title);
    }
    assert.deepEqual(bodies, [
      'InsufficientAuthenticationException',
      'BadCredentialsException',
      'BadCredentialsException',
      'InsufficientAuthenticationException',
    ]);
  });

  it('keeps /metrics open on the secured instance unless CLINIC_METRICS_AUTH asks for credentials', async () => {
    const config = { securityEnabled: true, adminUser: 'boss', adminPassword: 'boss-secret' };
    const open = checkedClient(createClinicApp(config, { contract }));
    await open.get('/metrics').expect(200);
    const closed = checkedClient(createClinicApp({ ...config, protectMetrics: true }, { contract }));
    await closed.get('/metrics').expect(401);
    await closed.get('/metrics').set('Authorization', basic('boss', 'boss-secret')).expect(200);
  });

  it('derives keys off the event loop: the loop turns while a check is pending', async () => {
    const checker = createPasswordChecker();
    const stored = hashPassword('right');
    const order: string[] = [];
    const pending = checker.check(stored, 'wrong').then(() => order.push('checked'));
    setImmediate(() => order.push('loop turned'));
    await pending;
    // Synchronous scrypt finished inside check(), before the loop could turn.
    assert.deepEqual(order, ['loop turned', 'checked']);
  });

  it('remembers a verified credential: a valid client pays one derivation, a wrong one pays every time', async () => {
    const store = createMemoryStore();
    store.users.insert({ username: 'u', passwordHash: hashPassword('pw'), enabled: true, roles: [] });
    const checker = createPasswordChecker();
    const app = express();
    app.use(authenticate(store, checker));
    app.get('/x', (_req, res) => res.json({ ok: true }));
    const before = checker.derivations;
    for (let i = 0; i < 3; i++)
      await request(app).get('/x').set('Authorization', basic('u', 'pw')).expect(200);
    assert.equal(checker.derivations - before, 1);
    for (let i = 0; i < 3; i++)
      await request(app).get('/x').set('Authorization', basic('u', 'no')).expect(401);
    assert.equal(checker.derivations - before, 4);
  });

  it('a wrong-password flood on the secured instance leaves the open one in the same process answering', async () => {
    // A real process, as start:clinic runs it: the test's client must not share its event loop.
    const clinic = await startClinicProcess({ ADMIN_USER: 'boss', ADMIN_PASSWORD: 'flood-test-secret' });
    const openServer = { url: clinic.openUrl };
    const secureServer = { url: clinic.secureUrl };
    try {
      const finished: string[] = [];
      const flood = Array.from({ length: 20 }, (_, i) =>
        fetch(`${secureServer.url}${API}/owners`, {
          // Twenty names: one name may hold only CHECK_LIMITS.perUser checks (the rest get 429).
          headers: { Authorization: basic(i === 0 ? 'boss' : `boss${i}`, `wrong-${i}`) },
        }).then((res) => {
          assert.equal(res.status, 401);
          finished.push('401');
        }),
      );
      // Let the flood arrive first, then ask the open instance.
      await new Promise((r) => setTimeout(r, 50));
      const health = await fetch(`${openServer.url}/petclinic/actuator/health`);
      assert.equal(health.status, 200);
      await Promise.all(flood);
      assert.equal(finished.length, 20);
      // A valid client pays once, then rides the cache.
      for (let i = 0; i < 3; i++) {
        const res = await fetch(`${secureServer.url}${API}/owners`, {
          headers: { Authorization: basic('boss', 'flood-test-secret') },
        });
        assert.equal(res.status, 200);
      }
    } finally {
      await clinic.proc.stop('SIGTERM');
    }
  });
});
