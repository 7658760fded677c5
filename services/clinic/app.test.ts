import assert from 'node:assert/strict';
import request from 'supertest';
import { createClinicApp, type ClinicApp } from './app.js';
import { loadContract } from './contract.js';

const contract = loadContract();
const open = () => createClinicApp({ securityEnabled: false }, { contract });
const API = '/petclinic/api';
const newOwner = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '12 Analytical St.',
  city: 'London',
  telephone: '6085550000',
};

/** Every successful body is checked against the schema the served document gives it. */
function conforms(schema: string, body: unknown): void {
  assert.deepEqual(
    contract.validateResponse(schema, body),
    [],
    `${schema} ${JSON.stringify(body).slice(0, 200)}`,
  );
}

function isProblem(res: request.Response, status: number, title?: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
  conforms('ProblemDetail', res.body);
  if (title) assert.equal(res.body.title, title);
}

describe('clinic API (open instance)', () => {
  let app: ClinicApp;
  beforeEach(() => {
    app = open();
  });

  it('answers health and serves its OpenAPI document with the statuses it really returns', async () => {
    for (const path of ['/petclinic/actuator/health', `${API}/actuator/health`]) {
      assert.deepEqual((await request(app).get(path).expect(200)).body, { status: 'UP' });
    }
    const doc = (await request(app).get('/petclinic/v3/api-docs').expect(200)).body;
    assert.ok(doc.paths['/api/owners'].post.responses['201']);
    assert.ok(doc.paths['/api/owners/{ownerId}'].put.responses['204']);
    await request(app).get(`${API}/v3/api-docs`).expect(200);
  });

  it('serves the upstream seed data with the same ids and nesting', async () => {
    const res = await request(app).get(`${API}/owners/6`).expect(200);
    conforms('Owner', res.body);
    assert.equal(res.body.firstName, 'Jean');
    assert.deepEqual(
      res.body.pets.map((p: { name: string; id: number }) => [p.name, p.id]),
      [
        ['Max', 8],
        ['Samantha', 7],
      ],
    );
    assert.deepEqual(
      res.body.pets[0].visits.map((v: { id: number }) => v.id),
      [3, 2],
      'visits newest first',
    );
    assert.equal((await request(app).get(`${API}/owners`)).body.length, 10);
    assert.equal((await request(app).get(`${API}/pets`)).body.length, 13);
    const vets = (await request(app).get(`${API}/vets`).expect(200)).body;
    assert.deepEqual(vets[2], {
      firstName: 'Linda',
      lastName: 'Douglas',
      specialties: [
        { id: 3, name: 'dentistry' },
        { id: 2, name: 'surgery' },
      ],
      id: 3,
    });
    for (const vet of vets) conforms('Vet', vet);
  });

  it('filters owners by last-name prefix and 404s an empty v1 list', async () => {
    const davis = await request(app).get(`${API}/owners?lastName=Davis`).expect(200);
    assert.deepEqual(
      davis.body.map((o: { id: number }) => o.id),
      [2, 4],
    );
    isProblem(await request(app).get(`${API}/owners?lastName=davis`), 404);
  });

  it('pages /v2/owners and /v2/pets as upstream, rejecting bad paging with 400', async () => {
    const res = await request(app).get(`${API}/v2/owners?size=3`).expect(200);
    conforms('OwnerPage', res.body);
    assert.deepEqual(
      [
        res.body.totalElements,
        res.body.totalPages,
        res.body.content.map((o: { firstName: string }) => o.firstName),
      ],
      [10, 4, ['George', 'Betty', 'Eduardo']],
    );
    const davis = await request(app).get(`${API}/v2/owners?lastName=Davis&size=1`).expect(200);
    assert.deepEqual([davis.body.totalElements, davis.body.content[0].firstName], [2, 'Betty']);
    assert.deepEqual((await request(app).get(`${API}/v2/owners?page=9`).expect(200)).body.content, []);
    conforms('PetPage', (await request(app).get(`${API}/v2/pets?page=1&size=5`).expect(200)).body);
    for (const q of ['page=-1', 'size=0', 'size=101', 'size=x'])
      isProblem(await request(app).get(`${API}/v2/owners?${q}`), 400);
  });

  it('runs the CRUD journey with 201 + Location, 204 on update and delete, 404 after', async () => {
    const created = await request(app)
      .post(`${API}/owners`)
      .send({ ...newOwner, id: null, extra: 'ignored' })
      .expect(201);
    conforms('Owner', created.body);
    const id = created.body.id;
    assert.equal(created.headers.location, `/api/owners/${id}`);
    assert.equal(created.body.firstName, 'Ada');
    const pet = await request(app)
      .post(`${API}/owners/${id}/pets`)
      .send({ name: 'Rex', birthDate: '2020-01-15', type: { id: '2', name: 'whatever' } })
      .expect(201);
    conforms('Pet', pet.body);
    assert.deepEqual(pet.body.type, { name: 'dog', id: 2 });
    const visit = await request(app)
      .post(`${API}/owners/${id}/pets/${pet.body.id}/visits`)
      .send({ date: '2026-01-02', description: 'check-up' })
      .expect(201);
    conforms('Visit', visit.body);
    assert.equal(
      (await request(app).get(`${API}/owners/${id}/pets/${pet.body.id}`).expect(200)).body.visits.length,
      1,
    );
    await request(app)
      .put(`${API}/owners/${id}`)
      .send({ ...newOwner, city: 'Paris' })
      .expect(204);
    assert.equal((await request(app).get(`${API}/owners/${id}`)).body.city, 'Paris');
    await request(app)
      .put(`${API}/pets/${pet.body.id}`)
      .send({ name: 'Rexy', birthDate: '2020-01-15', type: { id: 1, name: 'cat' } })
      .expect(204);
    await request(app).delete(`${API}/owners/${id}`).expect(204);
    isProblem(await request(app).get(`${API}/owners/${id}`), 404);
    isProblem(await request(app).get(`${API}/pets/${pet.body.id}`), 404);
    isProblem(await request(app).get(`${API}/visits/${visit.body.id}`), 404);
  });

  it('creates and changes visits, pet types, specialties and vets', async () => {
    const v = await request(app)
      .post(`${API}/visits`)
      .send({ petId: 1, date: '2026-02-02', description: 'teeth' })
      .expect(201);
    await request(app)
      .put(`${API}/visits/${v.body.id}`)
      .send({ date: '2026-02-03', description: 'teeth again' })
      .expect(204);
    await request(app).delete(`${API}/visits/${v.body.id}`).expect(204);
    const t = await request(app).post(`${API}/pettypes`).send({ name: 'zebra' }).expect(201);
    conforms('PetType', t.body);
    await request(app).put(`${API}/pettypes/${t.body.id}`).send({ id: t.body.id, name: 'okapi' }).expect(204);
    assert.equal((await request(app).get(`${API}/pettypes/${t.body.id}`)).body.name, 'okapi');
    await request(app).delete(`${API}/pettypes/${t.body.id}`).expect(204);
    const s = await request(app).post(`${API}/specialties`).send({ name: 'cardiology' }).expect(201);
    conforms('Specialty', s.body);
    const vet = await request(app)
      .post(`${API}/vets`)
      .send({
        firstName: 'Doc',
        lastName: 'Brown',
        specialties: [{ name: 'cardiology' }, { name: 'unknown' }],
      })
      .expect(201);
    assert.deepEqual(
      vet.body.specialties,
      [{ id: s.body.id, name: 'cardiology' }],
      'unknown specialty names are dropped, as upstream',
    );
    await request(app).delete(`${API}/specialties/${s.body.id}`).expect(204);
    assert.deepEqual((await request(app).get(`${API}/vets/${vet.body.id}`)).body.specialties, []);
    await request(app)
      .put(`${API}/vets/${vet.body.id}`)
      .send({ firstName: 'Emmett', lastName: 'Brown', specialties: [] })
      .expect(204);
    await request(app).delete(`${API}/vets/${vet.body.id}`).expect(204);
  });

  it('validates bodies from the document: alphabetic telephone, missing fields, bad pet dates', async () => {
    const phone = await request(app)
      .post(`${API}/owners`)
      .send({ ...newOwner, telephone: 'abcdefghij' });
    isProblem(phone, 400, 'MethodArgumentNotValidException');
    assert.equal(phone.body.schemaValidationErrors[0].field, 'telephone');
    assert.equal(phone.body.schemaValidationErrors[0].rejectedValue, 'abcdefghij');
    const missing = await request(app).post(`${API}/owners`).send({ firstName: 'Ada' });
    isProblem(missing, 400);
    assert.deepEqual(missing.body.schemaValidationErrors.map((e: { field: string }) => e.field).sort(), [
      'address',
      'city',
      'lastName',
      'telephone',
    ]);
    isProblem(
      await request(app)
        .post(`${API}/owners`)
        .send({ ...newOwner, telephone: '12345' }),
      400,
    );
    isProblem(
      await request(app)
        .post(`${API}/owners`)
        .send({ ...newOwner, firstName: 'R2D2' }),
      400,
    );
    const future = await request(app)
      .post(`${API}/owners/1/pets`)
      .send({ name: 'Rex', birthDate: '2999-01-01', type: { id: 2, name: 'dog' } });
    isProblem(future, 400);
    assert.equal(future.body.schemaValidationErrors[0].defaultMessage, 'Birth date cannot be in the future');
    isProblem(
      await request(app)
        .post(`${API}/owners/1/pets`)
        .send({ name: 'Rex', birthDate: '1950-01-01', type: { id: 2, name: 'dog' } }),
      400,
    );
    isProblem(
      await request(app)
        .post(`${API}/owners/1/pets`)
        .send({ name: 'Rex', birthDate: '2020-01-01', type: { id: 99, name: 'dog' } }),
      404,
      'DataIntegrityViolationException',
    );
    isProblem(await request(app).post(`${API}/visits`).send({ description: 'no pet' }), 400);
  });

  it('answers bad requests with the right 4xx, never a 5xx, and unknown ids with 404', async () => {
    for (const id of ['0', '2147483647', '99999'])
      isProblem(await request(app).get(`${API}/owners/${id}`), 404);
    for (const id of ['-1', 'abc', '1.5']) isProblem(await request(app).get(`${API}/owners/${id}`), 400);
    isProblem(
      await request(app).post(`${API}/owners`).set('Content-Type', 'application/json').send('{"firstName":'),
      400,
      'HttpMessageNotReadableException',
    );
    isProblem(await request(app).post(`${API}/owners`).type('text/plain').send('x'), 415);
    isProblem(await request(app).get(`${API}/nope`), 404, 'NoResourceFoundException');
    isProblem(await request(app).get(`${API}/owners/`), 404);
    isProblem(await request(app).get(`${API}/oops`), 500);
  });

  it('keeps ids unique under concurrent creates', async () => {
    const results = await Promise.all(
      Array.from({ length: 40 }, () => request(app).post(`${API}/owners`).send(newOwner)),
    );
    const ids = results.map((r) => r.body.id);
    assert.equal(new Set(ids).size, 40);
  });

  it('counts requests in /metrics by templated route', async () => {
    await request(app).get(`${API}/owners/1`);
    const text = (await request(app).get('/metrics').expect(200)).text;
    assert.match(
      text,
      /http_requests_total\{method="GET",route="\/petclinic\/api\/owners\/:ownerId",status="200",service="clinic"\} 1/,
    );
  });
});

describe('clinic API (secured instance)', () => {
  let app: ClinicApp;
  const admin = ['admin', 'admin-secret'] as const;
  beforeEach(() => {
    app = createClinicApp(
      { securityEnabled: true, adminUser: admin[0], adminPassword: admin[1] },
      { contract },
    );
  });

  it('refuses missing or wrong credentials with 401 and a Basic challenge', async () => {
    const none = await request(app).get(`${API}/owners`).expect(401);
    assert.match(none.headers['www-authenticate'] ?? '', /Basic realm="Realm"/);
    await request(app).get(`${API}/owners`).auth('admin', 'wrong').expect(401);
    await request(app)
      .get(`${API}/owners`)
      .auth(...admin)
      .expect(200);
    await request(app).get('/petclinic/actuator/health').expect(200);
  });

  it('creates users with hashed passwords who log in at once, with role checks (403)', async () => {
    const created = await request(app)
      .post(`${API}/users`)
      .auth(...admin)
      .send({ username: 'owneradmin', password: 'pw-1', enabled: true, roles: [{ name: 'OWNER_ADMIN' }] })
      .expect(201);
    conforms('User', created.body);
    assert.deepEqual(created.body.roles, [{ name: 'ROLE_OWNER_ADMIN' }]);
    assert.doesNotMatch(JSON.stringify(app.locals.store.users.list()), /pw-1/, 'only a hash is stored');
    await request(app)
      .post(`${API}/users`)
      .auth('owneradmin', 'pw-1')
      .send({ username: 'vetadmin', password: 'pw-2', enabled: true, roles: [{ name: 'VET_ADMIN' }] })
      .expect(403);
    await request(app)
      .post(`${API}/users`)
      .auth(...admin)
      .send({ username: 'vetadmin', password: 'pw-2', enabled: true, roles: [{ name: 'VET_ADMIN' }] })
      .expect(201);
    await request(app)
      .post(`${API}/users`)
      .auth(...admin)
      .send({ username: 'vetadmin', password: 'pw-2', roles: [{ name: 'VET_ADMIN' }] })
      .expect(409);
    isProblem(
      await request(app)
        .post(`${API}/users`)
        .auth(...admin)
        .send({ username: 'noroles', password: 'x' }),
      400,
    );

    await request(app).get(`${API}/owners`).auth('owneradmin', 'pw-1').expect(200);
    await request(app).get(`${API}/pettypes`).auth('owneradmin', 'pw-1').expect(200);
    isProblem(await request(app).get(`${API}/vets`).auth('owneradmin', 'pw-1'), 403);
    isProblem(await request(app).post(`${API}/pettypes`).auth('owneradmin', 'pw-1').send({ name: 'x' }), 403);
    await request(app).get(`${API}/vets`).auth('vetadmin', 'pw-2').expect(200);
    await request(app).get(`${API}/pettypes/1`).auth('vetadmin', 'pw-2').expect(200);
    isProblem(await request(app).get(`${API}/owners`).auth('vetadmin', 'pw-2'), 403);
    isProblem(await request(app).get(`${API}/v2/pets`).auth('vetadmin', 'pw-2'), 403);
  });

  it("keeps each instance's state its own and sends Spring Security's headers", async () => {
    const res = await request(app)
      .post(`${API}/owners`)
      .auth(...admin)
      .send(newOwner)
      .expect(201);
    assert.equal(res.headers['x-content-type-options'], 'nosniff');
    assert.match(res.headers['cache-control'] ?? '', /no-cache/);
    isProblem(await request(open()).get(`${API}/owners/${res.body.id}`), 404);
  });
});
