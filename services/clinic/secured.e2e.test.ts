import assert from 'node:assert/strict';
import { createClinicApp, type ClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { describeEachStore } from './store/test-stores.js';
import { API, checkedClient, type CheckedClient } from './test-client.js';

const contract = loadContract();
const admin = ['boss', 'admin-secret'] as const;
const owner = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '1 St.',
  city: 'London',
  telephone: '6085550000',
};

/** One request per route group, with the roles upstream requires for it. */
const GROUPS: { method: 'get' | 'post' | 'put' | 'delete'; path: string; body?: unknown; roles: string[] }[] =
  [
    { method: 'get', path: '/owners', roles: ['OWNER_ADMIN'] },
    { method: 'post', path: '/owners', body: owner, roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/owners/1/pets/1', roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/v2/owners', roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/v2/pets', roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/pets/1', roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/visits', roles: ['OWNER_ADMIN'] },
    { method: 'get', path: '/pettypes', roles: ['OWNER_ADMIN', 'VET_ADMIN'] },
    { method: 'get', path: '/pettypes/1', roles: ['OWNER_ADMIN', 'VET_ADMIN'] },
    { method: 'post', path: '/pettypes', body: { name: 'yak' }, roles: ['VET_ADMIN'] },
    { method: 'put', path: '/pettypes/2', body: { id: 2, name: 'dog' }, roles: ['VET_ADMIN'] },
    { method: 'get', path: '/vets', roles: ['VET_ADMIN'] },
    { method: 'get', path: '/specialties/1', roles: ['VET_ADMIN'] },
    {
      method: 'post',
      path: '/users',
      body: { username: 'someone', password: 'pw', roles: [{ name: 'VET_ADMIN' }] },
      roles: ['ADMIN'],
    },
  ];

describeEachStore('clinic API (secured instance)', (fresh) => {
  let app: ClinicApp;
  let c: CheckedClient;
  const createUser = (username: string, password: string, role: string, enabled = true) =>
    c
      .post(`${API}/users`)
      .auth(...admin)
      .send({ username, password, enabled, roles: [{ name: role }] })
      .expect(201);

  beforeEach(async () => {
    app = createClinicApp(
      { securityEnabled: true, adminUser: admin[0], adminPassword: admin[1] },
      { contract, store: await fresh() },
    );
    c = checkedClient(app);
  });

  it('documents HTTP Basic with 401/403 in its served document', async () => {
    const doc = (await c.get('/petclinic/v3/api-docs').expect(200)).body;
    assert.deepEqual(doc.components.securitySchemes.basicAuth, { type: 'http', scheme: 'basic' });
    assert.ok(doc.paths['/api/owners'].get.responses['401']);
    assert.ok(doc.paths['/api/owners'].get.responses['403']);
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge, on every path', async () => {
    for (const path of ['/owners', '/owners/1', '/vets', '/nope', '/oops']) {
      const none = await c.get(`${API}${path}`).expect(401);
      assert.match(none.headers['www-authenticate'] ?? '', /Basic realm="Realm"/);
    }
    await c.post(`${API}/owners`).send(owner).expect(401);
    await c.get(`${API}/owners`).auth(admin[0], 'wrong').expect(401);
    await c.get(`${API}/owners`).auth('nobody', admin[1]).expect(401);
    await c.get(`${API}/owners`).set('Authorization', 'Basic !!!').expect(401);
    await c.get(`${API}/owners`).set('Authorization', 'Bearer x').expect(401);
    await c
      .get(`${API}/owners`)
      .auth(...admin)
      .expect(200);
    // Probes stay open for readiness checks.
    await c.get('/petclinic/actuator/health').expect(200);
    await c.get(`${API}/actuator/health`).expect(200);
  });

  it('gives each route group to its roles: others get 403, the admin from ADMIN_USER gets all', async () => {
    const users: Record<string, string> = { OWNER_ADMIN: 'owners', VET_ADMIN: 'vets', ADMIN: 'admins' };
    for (const [role, name] of Object.entries(users)) await createUser(name, `${name}-pw`, role);
    for (const group of GROUPS) {
      for (const [role, name] of Object.entries(users)) {
        const req = c[group.method](`${API}${group.path}`).auth(name, `${name}-pw`);
        const res = await (group.body ? req.send(group.body as object) : req);
        const label = `${role} ${group.method.toUpperCase()} ${group.path}`;
        if (group.roles.includes(role)) assert.ok(res.status < 300, `${label} -> ${res.status} ${res.text}`);
        else {
          assert.equal(res.status, 403, label);
          assert.equal(res.body.title, 'AuthorizationDeniedException');
        }
      }
    }
    for (const group of GROUPS.filter((g) => g.method === 'get')) {
      await c[group.method](`${API}${group.path}`)
        .auth(...admin)
        .expect(200);
    }
  });

  it('creates users whose hashed passwords log in at once; bad or duplicate users are refused', async () => {
    const created = await createUser('owneradmin', 'pw-1', 'OWNER_ADMIN');
    assert.deepEqual(created.body, {
      username: 'owneradmin',
      password: 'pw-1',
      enabled: true,
      roles: [{ name: 'ROLE_OWNER_ADMIN' }],
    });
    const stored = (await app.locals.store.users.listBy('username', 'owneradmin'))[0]!;
    assert.doesNotMatch(JSON.stringify(stored), /pw-1/, 'only a hash is stored');
    assert.match(stored.passwordHash, /^scrypt\$/);
    await c.get(`${API}/owners`).auth('owneradmin', 'pw-1').expect(200);
    await c.get(`${API}/owners`).auth('owneradmin', 'pw-2').expect(401);
    await createUser('sleeper', 'pw-3', 'ROLE_OWNER_ADMIN', false);
    await c.get(`${API}/owners`).auth('sleeper', 'pw-3').expect(401);
    const duplicate = await c
      .post(`${API}/users`)
      .auth(...admin)
      .send({ username: 'owneradmin', password: 'x', roles: [{ name: 'VET_ADMIN' }] });
    assert.equal(duplicate.status, 409);
    for (const body of [
      { username: 'noroles', password: 'x' },
      { username: 'emptyroles', password: 'x', roles: [] },
      { username: 'nopassword', roles: [{ name: 'VET_ADMIN' }] },
      { username: 'x'.repeat(21), password: 'x', roles: [{ name: 'VET_ADMIN' }] },
      { password: 'x', roles: [{ name: 'VET_ADMIN' }] },
    ]) {
      const res = await c
        .post(`${API}/users`)
        .auth(...admin)
        .send(body);
      assert.equal(res.status, 400, JSON.stringify(body));
    }
  });

  it("keeps each instance's state its own and sends Spring Security's headers", async () => {
    const res = await c
      .post(`${API}/owners`)
      .auth(...admin)
      .send(owner)
      .expect(201);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.headers['cache-control'] ?? '', /no-cache/);
    const other = checkedClient(
      createClinicApp({ securityEnabled: false }, { contract, store: await fresh() }),
    );
    await other.get(`${API}/owners/${res.body.id}`).expect(404);
  });
});
