// On both stores: a user's change counts on the next request (the
// cache of verified passwords is checked against the stored row), the environment's admin password
// is the admin's after every start, two instances creating the admin at once both start, and a NUL
// in the credentials cannot collide with another user's cached entry.
import assert from 'node:assert/strict';
import { createClinicApp, type ClinicApp } from './app.js';
import { ensureAdmin } from './admin.js';
import { loadContract } from './contract.js';
import { createPasswordChecker, hashPassword, ROLES } from './security.js';
import { createPostgresStore } from './store/postgres.js';
import { describeEachStore, testDatabaseUrl } from './store/test-stores.js';
import type { ClinicStore } from './store/types.js';
import { API, checkedClient, type CheckedClient } from './test-client.js';

const contract = loadContract();
const basic = (user: string, password: string) =>
  `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const ADMIN = { securityEnabled: true, adminUser: 'boss', adminPassword: 'first-Strong-Secret-1' };

describeEachStore('secured clinic: changes to users count at once', (fresh) => {
  let store: ClinicStore;
  let app: ClinicApp;
  let c: CheckedClient;
  beforeEach(async () => {
    store = await fresh();
    app = createClinicApp(ADMIN, { contract, store });
    await app.locals.ready;
    c = checkedClient(app);
  });
  const owners = (user: string, password: string) =>
    c.get(`${API}/owners/1`).set('Authorization', basic(user, password));
  const addUser = (username: string, password: string, enabled = true) =>
    store.users.insert({
      username,
      passwordHash: hashPassword(password),
      enabled,
      roles: [ROLES.OWNER_ADMIN],
    });

  it('refuses the old password, a disabled user and a deleted one on the very next request', async () => {
    const u = await addUser('carla', 'old-Secret-1');
    await owners('carla', 'old-Secret-1').expect(200); // verified and remembered
    await store.users.update(u.id, { ...u, passwordHash: hashPassword('new-Secret-2') });
    await owners('carla', 'old-Secret-1').expect(401);
    await owners('carla', 'new-Secret-2').expect(200);

    const again = (await store.users.get(u.id))!;
    await store.users.update(u.id, { ...again, enabled: false });
    await owners('carla', 'new-Secret-2').expect(401);
    await store.users.update(u.id, { ...again, enabled: true });
    await owners('carla', 'new-Secret-2').expect(200);

    // Deleted: 401 Bad credentials, not 403 from a role lookup that finds nobody.
    await store.users.delete(u.id);
    const gone = await owners('carla', 'new-Secret-2').expect(401);
    assert.equal(gone.body.title, 'BadCredentialsException');
    // Re-created under the same name with another password: the old one stays refused.
    await addUser('carla', 'third-Secret-3');
    await owners('carla', 'new-Secret-2').expect(401);
    await owners('carla', 'third-Secret-3').expect(200);
  });

  it('takes role changes at once, from the same row it checked the password against', async () => {
    const u = await addUser('vera', 'vet-Secret-1');
    await owners('vera', 'vet-Secret-1').expect(200);
    await store.users.update(u.id, { ...u, roles: [ROLES.VET_ADMIN] });
    await owners('vera', 'vet-Secret-1').expect(403);
  });

  it('keeps credentials holding NUL apart: n / x\\0y-Secret1 does not let n\\0x / y-Secret1 in', async () => {
    await addUser('n', 'x\u0000y-Secret1');
    await owners('n', 'x\u0000y-Secret1').expect(200);
    const res = await owners('n\u0000x', 'y-Secret1').expect(401);
    assert.equal(res.body.title, 'BadCredentialsException');
  });

  it('makes the configured ADMIN_PASSWORD the admin password on every start (rotation)', async () => {
    await c.get(`${API}/owners/1`).set('Authorization', basic('boss', ADMIN.adminPassword)).expect(200);
    // A restart on the same store with a rotated password.
    const rotated = createClinicApp(
      { ...ADMIN, adminPassword: 'rotated-Strong-Secret-2' },
      { contract, store },
    );
    await rotated.locals.ready;
    const r = checkedClient(rotated);
    await r.get(`${API}/owners/1`).set('Authorization', basic('boss', ADMIN.adminPassword)).expect(401);
    await r.get(`${API}/owners/1`).set('Authorization', basic('boss', 'rotated-Strong-Secret-2')).expect(200);
    assert.equal((await store.users.listBy('username', 'boss')).length, 1);
  });

  it('hashes a new user off the event loop, in the derivation queue (POST /users)', async () => {
    const checker = createPasswordChecker();
    const withChecker = checkedClient(createClinicApp(ADMIN, { contract, store, checker }));
    const auth = basic('boss', ADMIN.adminPassword);
    await withChecker.get(`${API}/owners/1`).set('Authorization', auth).expect(200);
    const before = checker.derivations;
    await withChecker
      .post(`${API}/users`)
      .set('Authorization', auth)
      .send({ username: 'newbie', password: 'newbie-Secret-1', roles: [{ name: 'OWNER_ADMIN' }] })
      .expect(201);
    assert.equal(checker.derivations - before, 1, 'the new hash went through the queue');
    await withChecker
      .get(`${API}/owners/1`)
      .set('Authorization', basic('newbie', 'newbie-Secret-1'))
      .expect(200);
  });
});

describe('two secured instances starting together on one empty database', function () {
  this.timeout(120_000);
  it('both start: creating the admin is safe against a concurrent creation', async function () {
    const url = await testDatabaseUrl();
    if (!url) this.skip();
    for (let run = 0; run < 8; run++) {
      const schema = `admin_race_${process.pid}_${run}`;
      const [a, b]: [ClinicStore, ClinicStore] = await Promise.all([
        createPostgresStore({ url: url!, schema }),
        createPostgresStore({ url: url!, schema }),
      ]);
      try {
        await Promise.all([ensureAdmin(a, ADMIN), ensureAdmin(b, ADMIN)]);
        assert.equal((await a.users.listBy('username', 'boss')).length, 1);
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    }
  });
});
