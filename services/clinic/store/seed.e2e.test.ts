import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import request from 'supertest';
import { createClinicApp } from '../app.js';
import { describeEachStore } from './test-stores.js';
import { sqlRows, type SqlRow } from './sql-rows.js';

const LOCAL = new URL('./upstream-data.sql', import.meta.url);
// The contract as the lead keeps it, beside the repository (absent in a bare checkout).
const SHARED = new URL('../../../../shared/reference/petclinic/data.sql', import.meta.url);
const API = '/petclinic/api';
const rows = sqlRows(readFileSync(LOCAL, 'utf8'));
const table = (name: string): SqlRow[] => rows.get(name) ?? [];

describeEachStore('clinic seed data', (fresh) => {
  let app: ReturnType<typeof createClinicApp>;
  beforeEach(async () => {
    app = createClinicApp({ securityEnabled: false }, { store: await fresh() });
  });
  const get = async (path: string) => (await request(app).get(`${API}${path}`).expect(200)).body;

  it('uses upstream data.sql verbatim (equal to the reference copy when present)', function () {
    if (!existsSync(SHARED)) this.skip();
    assert.equal(readFileSync(LOCAL, 'utf8'), readFileSync(SHARED, 'utf8'));
  });

  it('parses the counts upstream documents (so the comparisons below are not vacuous)', () => {
    assert.deepEqual(
      ['owners', 'pets', 'types', 'vets', 'specialties', 'vet_specialties', 'visits'].map(
        (t) => table(t).length,
      ),
      [10, 13, 6, 6, 3, 5, 4],
    );
  });

  it('has every owner of data.sql with the same id and values', async () => {
    const owners = await get('/owners');
    assert.equal(owners.length, table('owners').length);
    table('owners').forEach((row, i) => {
      const o = owners[i];
      assert.deepEqual(
        [o.id, o.firstName, o.lastName, o.address, o.city, o.telephone],
        [i + 1, row.first_name, row.last_name, row.address, row.city, row.telephone],
      );
    });
  });

  it('has every pet, pet type and visit of data.sql with the same ids and links', async () => {
    const types = await get('/pettypes');
    assert.deepEqual(
      types,
      table('types').map((row, i) => ({ name: row.name, id: i + 1 })),
    );
    const pets = await get('/pets');
    assert.equal(pets.length, table('pets').length);
    table('pets').forEach((row, i) => {
      const p = pets[i];
      assert.deepEqual(
        [p.id, p.name, p.birthDate, p.type.id, p.ownerId],
        [i + 1, row.name, row.birth_date, row.type_id, row.owner_id],
      );
      assert.equal(p.type.name, table('types')[Number(row.type_id) - 1]!.name);
    });
    const visits = await get('/visits');
    assert.deepEqual(
      visits,
      table('visits').map((row, i) => ({
        date: row.visit_date,
        description: row.description,
        id: i + 1,
        petId: row.pet_id,
      })),
    );
  });

  it('has every vet and specialty of data.sql with the same ids and links', async () => {
    assert.deepEqual(
      await get('/specialties'),
      table('specialties').map((row, i) => ({ id: i + 1, name: row.name })),
    );
    const vets = await get('/vets');
    assert.equal(vets.length, table('vets').length);
    table('vets').forEach((row, i) => {
      const links = table('vet_specialties')
        .filter((l) => l.vet_id === i + 1)
        .map((l) => Number(l.specialty_id));
      assert.deepEqual(
        [vets[i].id, vets[i].firstName, vets[i].lastName],
        [i + 1, row.first_name, row.last_name],
      );
      assert.deepEqual(vets[i].specialties.map((s: { id: number }) => s.id).sort(), links.sort());
    });
  });

  it("nests as upstream: an owner's pets by name, a pet's visits newest first", async () => {
    const jean = await get('/owners/6');
    assert.deepEqual(
      jean.pets.map((p: { name: string; id: number }) => [p.name, p.id]),
      [
        ['Max', 8],
        ['Samantha', 7],
      ],
    );
    assert.deepEqual(
      jean.pets[0].visits.map((v: { id: number }) => v.id),
      [3, 2],
    );
  });
});
