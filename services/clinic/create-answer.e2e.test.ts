// A create answers from its own write. When every read after the write fails
// (a database that went away between the INSERT's commit and the view's SELECT), the client still
// gets its 201 with the stored record, not a 500 that invites a retry and a duplicate.
import assert from 'node:assert/strict';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { createMemoryStore } from './store/memory.js';
import { StoreUnavailable, type ClinicStore, type Repository } from './store/types.js';
import { API, checkedClient } from './test-client.js';

const contract = loadContract();

/** After the first write, every read of every repository fails as a lost database does. */
function readsFailAfterWrite(store: ClinicStore): ClinicStore {
  let written = false;
  const reads = ['list', 'listPage', 'listBy', 'listIn', 'get'] as const;
  const wrap = <T extends { id: number }>(repo: Repository<T>): Repository<T> =>
    new Proxy(repo, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver) as unknown;
        if (typeof value !== 'function') return value;
        return (...args: unknown[]) => {
          if (written && (reads as readonly string[]).includes(String(name)))
            return Promise.reject(new StoreUnavailable('connection lost after the commit'));
          const result = (value as (...a: unknown[]) => unknown).apply(target, args);
          if (name === 'insert') written = true;
          return result;
        };
      },
    });
  return {
    ...store,
    owners: wrap(store.owners) as ClinicStore['owners'],
    pets: wrap(store.pets),
    vets: wrap(store.vets),
    visits: wrap(store.visits),
    petTypes: wrap(store.petTypes),
    specialties: wrap(store.specialties),
  };
}

describe('creates answer from their own write', () => {
  it('answers 201 with the stored owner, pet and vet when the reads after the write fail', async () => {
    const cases: [string, object, (body: Record<string, unknown>) => void][] = [
      [
        '/owners',
        { firstName: 'Ada', lastName: 'Lovelace', address: '1 St.', city: 'London', telephone: '6085550000' },
        (b) => assert.deepEqual(b.pets, []),
      ],
      [
        '/owners/1/pets',
        { name: 'Leo', birthDate: '2020-01-01', type: { id: 2, name: 'dog' } },
        (b) => assert.deepEqual(b.type, { name: 'dog', id: 2 }),
      ],
      [
        '/vets',
        { firstName: 'Vi', lastName: 'Vet', specialties: [{ name: 'surgery' }, { name: 'radiology' }] },
        (b) =>
          assert.deepEqual(
            (b.specialties as { name: string }[]).map((s) => s.name),
            ['radiology', 'surgery'],
          ),
      ],
    ];
    for (const [path, body, check] of cases) {
      const store = createMemoryStore({ seeded: true });
      const c = checkedClient(
        createClinicApp({ securityEnabled: false }, { contract, store: readsFailAfterWrite(store) }),
      );
      const res = await c.post(`${API}${path}`).send(body).expect(201);
      check(res.body);
      // Exactly one record was stored, and it is the one answered.
      assert.match(String(res.headers.location), /\/\d+$/);
    }
  });
});
