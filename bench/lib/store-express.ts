// The reference for the clinic's own layers: a minimal Express app doing the same store work as the
// clinic for GET /owners, GET /owners/{id} and POST /owners (read owners with their nested pets, or
// insert one),
// with no contract validation, problem details, metrics or security. The clinic over this, on the
// same kind of store, is what those layers cost.
import express from 'express';
import type { RequestListener } from 'node:http';
import { createMemoryStore } from '../../services/clinic/store/memory.js';
import { createPostgresStore } from '../../services/clinic/store/postgres.js';
import type { ClinicStore, OwnerRecord } from '../../services/clinic/store/types.js';
import { views } from '../../services/clinic/views.js';

/** The store a bench target uses: memory, or its own schema in BENCH_DATABASE_URL's database. */
export async function benchStore(kind: 'memory' | 'postgres', schema: string): Promise<ClinicStore> {
  if (kind === 'memory') return createMemoryStore({ seeded: true });
  const url = process.env.BENCH_DATABASE_URL;
  if (!url) throw new Error('BENCH_DATABASE_URL is not set');
  return createPostgresStore({ url, schema });
}

export function storeExpress(store: ClinicStore): RequestListener {
  const view = views(store);
  const app = express();
  app.get('/petclinic/api/owners', async (_req, res) => {
    const { records } = await store.owners.findByLastName('');
    res.json(await view.owners(records));
  });
  app.get('/petclinic/api/owners/:ownerId', async (req, res) => {
    const owner = await store.owners.get(Number(req.params.ownerId));
    if (!owner) res.status(404).end();
    else res.json(await view.owner(owner));
  });
  app.post('/petclinic/api/owners', express.json(), async (req, res) => {
    const b = req.body as OwnerRecord;
    const owner = await store.owners.insert({
      firstName: b.firstName,
      lastName: b.lastName,
      address: b.address,
      city: b.city,
      telephone: b.telephone,
    });
    res.status(201).json(await view.owner(owner));
  });
  return app;
}
