// What both stores must do the same behind the API: paging and the last-name prefix done by the
// store, upstream's cascades, 404 for ids that are not there, and 400 (never 500) for a value a
// column cannot hold.
import assert from 'node:assert/strict';
import { createClinicApp, type ClinicApp } from '../app.js';
import { loadContract } from '../contract.js';
import { API, checkedClient, type CheckedClient } from '../test-client.js';
import { describeEachStore } from './test-stores.js';
import type { ClinicStore } from './types.js';

const contract = loadContract();
const admin: [string, string] = ['admin', 'secret-for-tests'];
const owner = (lastName: string) => ({
  firstName: 'Ada',
  lastName,
  address: '1 Main St.',
  city: 'Madison',
  telephone: '6085550000',
});
const ids = (body: { id: number }[]) => body.map((o) => o.id);
/** Names must be letters: i as two of them (aa, ab, ...). */
const tag = (i: number) => String.fromCharCode(97 + Math.floor(i / 26), 97 + (i % 26));

describeEachStore('clinic stores', (fresh) => {
  let app: ClinicApp;
  let c: CheckedClient;
  beforeEach(async () => {
    app = createClinicApp({ securityEnabled: false }, { contract, store: await fresh() });
    c = checkedClient(app);
  });

  it('pages /v2/owners in id order with the filtered total, past the end too', async () => {
    for (const name of ['Pager', 'Pagerson', 'Pagliacci'])
      await c.post(`${API}/owners`).send(owner(name)).expect(201);
    const seen: number[] = [];
    for (let page = 0; page < 3; page++) {
      const body = (await c.get(`${API}/v2/owners?lastName=Pag&size=2&page=${page}`).expect(200)).body;
      assert.deepEqual([body.totalElements, body.totalPages, body.page, body.size], [3, 2, page, 2]);
      seen.push(...ids(body.content));
    }
    assert.deepEqual(seen, [11, 12, 13]);
  });

  it('matches the last-name prefix literally: % and _ are letters, not wildcards', async () => {
    assert.deepEqual(ids((await c.get(`${API}/owners?lastName=Da`).expect(200)).body), [2, 4]);
    await c.get(`${API}/owners?lastName=D%25`).expect(404);
    await c.get(`${API}/owners?lastName=D_vis`).expect(404);
    await c.get(`${API}/owners?lastName=da`).expect(404);
  });

  it('cascades deletes as upstream: owner -> pets -> visits, pet type -> pets, specialty -> vet links', async () => {
    // Owner 6 (Jean Coleman) has pets 7 and 8, which have all four seeded visits.
    await c.delete(`${API}/owners/6`).expect(204);
    for (const path of ['/owners/6', '/pets/7', '/pets/8', '/visits/1', '/visits/4'])
      await c.get(`${API}${path}`).expect(404);
    // Pet type 3 (lizard) has pet 5 (Iggy).
    await c.delete(`${API}/pettypes/3`).expect(204);
    await c.get(`${API}/pets/5`).expect(404);
    assert.deepEqual((await c.get(`${API}/owners/4`).expect(200)).body.pets, []);
    // Specialty 2 (surgery) is Linda Douglas's (with dentistry) and Rafael Ortega's.
    await c.delete(`${API}/specialties/2`).expect(204);
    const names = async (vet: number) =>
      (await c.get(`${API}/vets/${vet}`).expect(200)).body.specialties.map((s: { name: string }) => s.name);
    assert.deepEqual(await names(3), ['dentistry']);
    assert.deepEqual(await names(4), []);
  });

  it('answers 404 for every kind of missing id, on read, update and delete', async () => {
    const missing = ['/owners/99', '/pets/99', '/visits/99', '/pettypes/99', '/specialties/99', '/vets/99'];
    for (const path of missing) await c.get(`${API}${path}`).expect(404);
    for (const path of missing) await c.delete(`${API}${path}`).expect(404);
    await c.put(`${API}/owners/99`).send(owner('Nobody')).expect(404);
    await c.put(`${API}/pettypes/99`).send({ id: 99, name: 'ghost' }).expect(404);
  });

  it('answers 400, not 500, for a value its column cannot hold (out of range)', async () => {
    // Year 0 is a valid ISO date string but no DATE holds it.
    const res = await c.post(`${API}/visits`).send({ petId: 1, date: '0000-01-01', description: 'x' });
    assert.equal(res.status, 400, res.text);
    assert.match(res.headers['content-type'] ?? '', /problem\+json/);
    await c.get(`${API}/visits/5`).expect(404);
  });
});

describeEachStore('clinic stores (secured)', (fresh) => {
  it('answers 400, not 500, for a username or role longer than its column, and keeps nothing', async () => {
    const app = createClinicApp(
      { securityEnabled: true, adminUser: admin[0], adminPassword: admin[1] },
      { contract, store: await fresh() },
    );
    const c = checkedClient(app);
    const user = (username: string, role: string) =>
      c
        .post(`${API}/users`)
        .auth(...admin)
        .send({ username, password: 'pw', roles: [{ name: role }] });
    const long = await user('u'.repeat(21), 'OWNER_ADMIN');
    assert.equal(long.status, 400, long.text);
    const role = await user('shortname', 'R'.repeat(30));
    assert.equal(role.status, 400, role.text);
    // The rejected user was not half-written: its name is still free.
    await user('shortname', 'OWNER_ADMIN').expect(201);
  });
});

describeEachStore('clinic stores under load', (fresh) => {
  it('keeps every acknowledged write exactly once with 100+ concurrent creates, updates and deletes', async () => {
    const app = createClinicApp({ securityEnabled: false }, { contract, store: await fresh() });
    const c = checkedClient(app);
    const pet = (name: string) => ({ name, birthDate: '2020-01-15', type: { id: 2, name: 'dog' } });
    const creates = Array.from({ length: 60 }, (_, i) =>
      c.post(`${API}/owners`).send(owner(`Load${tag(i)}`)),
    );
    const petCreates = Array.from({ length: 20 }, (_, i) =>
      c.post(`${API}/owners/1/pets`).send(pet(`Pup${tag(i)}`)),
    );
    const updates = Array.from({ length: 10 }, (_, i) =>
      c.put(`${API}/owners/${i + 1}`).send({ ...owner(`Moved${tag(i)}`), city: `City${i + 1}` }),
    );
    const deletes = Array.from({ length: 13 }, (_, i) => c.delete(`${API}/pets/${i + 1}`));
    const [created, pets, updated, deleted] = await Promise.all(
      [creates, petCreates, updates, deletes].map((group) => Promise.all(group)),
    );
    for (const res of [...created!, ...pets!]) assert.equal(res.status, 201, res.text);
    for (const res of [...updated!, ...deleted!]) assert.equal(res.status, 204, res.text);

    const ownerIds = created!.map((r) => r.body.id as number);
    assert.equal(new Set(ownerIds).size, 60, 'no owner id repeats');
    const all = (await c.get(`${API}/owners`).expect(200)).body as {
      id: number;
      lastName: string;
      city: string;
    }[];
    assert.equal(all.length, 70, 'seeded 10 + created 60, nothing doubled');
    for (let i = 0; i < 60; i++) {
      const found = all.filter((o) => o.lastName === `Load${tag(i)}`);
      assert.deepEqual(ids(found), [ownerIds[i]], `Load${i}x stored once under its acknowledged id`);
    }
    for (let i = 1; i <= 10; i++) assert.equal(all.find((o) => o.id === i)?.city, `City${i}`);
    const petIds = pets!.map((r) => r.body.id as number);
    assert.equal(new Set(petIds).size, 20, 'no pet id repeats');
    const ownersPets = (await c.get(`${API}/owners/1/pets`).expect(200)).body as { id: number }[];
    assert.deepEqual(
      ids(ownersPets).sort((a, b) => a - b),
      [...petIds].sort((a, b) => a - b),
    );
    for (let i = 1; i <= 13; i++) await c.get(`${API}/pets/${i}`).expect(404);
    assert.deepEqual((await c.get(`${API}/v2/pets?size=100`).expect(200)).body.totalElements, 20);
  });
});

/** The store with every repository call counted (on PostgreSQL each call is one query). */
function countingStore(store: ClinicStore): { store: ClinicStore; calls: () => number } {
  let calls = 0;
  const counted = <R extends object>(repository: R): R =>
    new Proxy(repository, {
      get(target, key, receiver) {
        const value: unknown = Reflect.get(target, key, receiver);
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          calls++;
          return (value as (...a: unknown[]) => unknown).apply(target, args);
        };
      },
    });
  const wrapped = { ...store };
  for (const name of ['owners', 'pets', 'visits', 'petTypes', 'specialties', 'vets', 'users'] as const)
    (wrapped as Record<string, unknown>)[name] = counted(store[name]);
  return { store: wrapped, calls: () => calls };
}

describeEachStore('clinic stores answering lists', (fresh) => {
  it('reads a list of any length in a fixed number of store calls (no query per owner, pet or vet)', async () => {
    const { store, calls } = countingStore(await fresh());
    const app = createClinicApp({ securityEnabled: false }, { contract, store });
    const c = checkedClient(app);
    const lists = ['/owners', '/v2/owners?size=50', '/pets', '/v2/pets?size=50', '/vets', '/visits'];
    const cost = async () => {
      const counts: Record<string, number> = {};
      for (const path of lists) {
        const before = calls();
        await c.get(`${API}${path}`).expect(200);
        counts[path] = calls() - before;
      }
      return counts;
    };
    const seeded = await cost();
    // Ten more owners with two pets each and a visit per pet, and three more vets.
    for (let i = 0; i < 10; i++) {
      const o = (
        await c
          .post(`${API}/owners`)
          .send(owner(`Many${tag(i)}`))
          .expect(201)
      ).body.id as number;
      for (const name of ['Rex', 'Bo']) {
        const pet = { name: `${name}${tag(i)}`, birthDate: '2020-01-15', type: { id: 2, name: 'dog' } };
        const p = (await c.post(`${API}/owners/${o}/pets`).send(pet).expect(201)).body.id as number;
        await c.post(`${API}/owners/${o}/pets/${p}/visits`).send({ date: '2024-01-01', description: 'x' });
      }
    }
    for (let i = 0; i < 3; i++)
      await c
        .post(`${API}/vets`)
        .send({ firstName: 'Vet', lastName: `Many${tag(i)}`, specialties: [{ id: 1, name: 'radiology' }] })
        .expect(201);
    const grown = await cost();
    assert.deepEqual(grown, seeded);
    // The fixed numbers: owners, their pets, those pets' visits and types (a v2 page's total is counted
    // inside the owners' call).
    assert.deepEqual(seeded, {
      '/owners': 4,
      '/v2/owners?size=50': 4,
      '/pets': 3,
      '/v2/pets?size=50': 3,
      '/vets': 2,
      '/visits': 1,
    });
    // The batched views are still complete: every new owner with both pets, each with its visit.
    const body = (await c.get(`${API}/owners?lastName=Many`).expect(200)).body as {
      pets: { name: string; visits: unknown[]; type: { name: string } }[];
    }[];
    assert.equal(body.length, 10);
    for (const o of body) {
      assert.deepEqual(
        o.pets.map((p) => [p.name.slice(0, -2), p.visits.length, p.type.name]),
        [
          ['Bo', 1, 'dog'],
          ['Rex', 1, 'dog'],
        ],
      );
    }
  });
});

describeEachStore('clinic stores on /metrics', (fresh) => {
  it('shows the database pool (clients, idle, waiting) where the store has one', async () => {
    const store = await fresh();
    const app = createClinicApp({ securityEnabled: false }, { contract, store });
    const c = checkedClient(app);
    await Promise.all(Array.from({ length: 5 }, () => c.get(`${API}/owners`).expect(200)));
    const text = (await c.get('/metrics').expect(200)).text;
    const value = (name: string) => text.match(new RegExp(`^${name}\\{[^}]*\\} (\\d+)$`, 'm'))?.[1];
    if (store.kind === 'memory') {
      assert.doesNotMatch(text, /clinic_db_pool/);
      return;
    }
    const total = Number(value('clinic_db_pool_clients'));
    assert.ok(total >= 1 && total <= 10, `clients ${total}`);
    assert.equal(Number(value('clinic_db_pool_idle_clients')), total, 'all idle once answered');
    assert.equal(value('clinic_db_pool_waiting_requests'), '0');
  });
});
