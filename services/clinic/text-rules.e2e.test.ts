// The same input gets the same answer on both stores, decided before either sees
// it. NUL in any text field or query value is a 400 naming the field (PostgreSQL cannot store it;
// the in-memory store used to); lengths count characters as PostgreSQL does (an emoji is one, not
// two UTF-16 units), so 255 emoji fit an address on both.
import assert from 'node:assert/strict';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { describeEachStore } from './store/test-stores.js';
import { API, checkedClient, type CheckedClient } from './test-client.js';

const contract = loadContract();
const NUL = '\u0000';
const EMOJI = '\u{1F600}';
const owner = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '12 Analytical St.',
  city: 'London',
  telephone: '6085550000',
};
const pet = { name: 'Leo', birthDate: '2020-01-01', type: { id: 1, name: 'cat' } };

/** [method, path, body, the field that holds the bad value] */
type Case = [string, string, unknown, string];

const nulCases: Case[] = [
  ...Object.keys(owner)
    .filter((k) => k !== 'telephone')
    .map((k): Case => ['post', '/owners', { ...owner, [k]: `a${NUL}b` }, k]),
  ['put', '/owners/1', { ...owner, city: `Lon${NUL}don` }, 'city'],
  ['post', '/owners/1/pets', { ...pet, name: `Le${NUL}o` }, 'name'],
  ['post', '/owners/1/pets/1/visits', { date: '2024-01-01', description: `x${NUL}` }, 'description'],
  ['post', '/pettypes', { name: `ca${NUL}t` }, 'name'],
  ['post', '/specialties', { name: `sur${NUL}gery` }, 'name'],
  ['post', '/vets', { firstName: 'Vi', lastName: `V${NUL}et`, specialties: [] }, 'lastName'],
  [
    'post',
    '/vets',
    { firstName: 'Vi', lastName: 'Vet', specialties: [{ id: 1, name: `radio${NUL}logy` }] },
    'specialties[0].name',
  ],
  [
    'post',
    '/users',
    { username: `u${NUL}`, password: 'p-Secret-1', roles: [{ name: 'OWNER_ADMIN' }] },
    'username',
  ],
];

describeEachStore('text rules before the store', (fresh) => {
  let c: CheckedClient;
  beforeEach(async () => {
    c = checkedClient(createClinicApp({ securityEnabled: false }, { contract, store: await fresh() }));
  });
  const send = (method: string, path: string, body: unknown) =>
    (c as unknown as Record<string, (url: string) => import('supertest').Test>)[method]!(
      `${API}${path}`,
    ).send(body as object);

  it('refuses NUL in every text field with 400 naming the field', async () => {
    for (const [method, path, body, field] of nulCases) {
      const res = await send(method, path, body);
      assert.equal(res.status, 400, `${method} ${path} ${field}: ${res.status}`);
      assert.deepEqual(
        res.body.schemaValidationErrors.map((e: { field: string }) => e.field),
        [field],
        `${method} ${path}`,
      );
    }
    const query = await c.get(`${API}/owners?lastName=Da%00vis`).expect(400);
    assert.equal(query.body.schemaValidationErrors[0].field, 'lastName');
    await c.get(`${API}/v2/owners?lastName=%00`).expect(400);
  });

  it('counts characters, not UTF-16 units: 255 emoji fit an address, 256 do not', async () => {
    await c
      .post(`${API}/owners`)
      .send({ ...owner, address: EMOJI.repeat(255) })
      .expect(201);
    await c
      .post(`${API}/owners`)
      .send({ ...owner, city: EMOJI.repeat(80) })
      .expect(201);
    await c
      .post(`${API}/owners/1/pets/1/visits`)
      .send({ date: '2024-01-01', description: EMOJI.repeat(255) })
      .expect(201);
    for (const [field, n] of [
      ['address', 256],
      ['city', 81],
    ] as const) {
      const res = await c
        .post(`${API}/owners`)
        .send({ ...owner, [field]: EMOJI.repeat(n) })
        .expect(400);
      assert.equal(res.body.schemaValidationErrors[0].field, field);
    }
  });
});
