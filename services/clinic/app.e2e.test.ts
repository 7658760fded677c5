import assert from 'node:assert/strict';
import request from 'supertest';
import { createClinicApp, type ClinicApp } from './app.js';
import { loadContract } from './contract.js';
import { describeEachStore } from './store/test-stores.js';
import { API, checkedClient, type CheckedClient } from './test-client.js';

const contract = loadContract();
const newOwner = {
  firstName: 'Ada',
  lastName: 'Lovelace',
  address: '12 Analytical St.',
  city: 'London',
  telephone: '6085550000',
};
const newPet = { name: 'Rex', birthDate: '2020-01-15', type: { id: 2, name: 'dog' } };

/** A problem detail with upstream's fields (the document check validates them against ProblemDetail). */
function isProblem(res: request.Response, status: number, title?: string): void {
  assert.equal(res.status, status, res.text);
  assert.match(res.headers['content-type'] ?? '', /application\/problem\+json/);
  for (const field of ['type', 'title', 'status', 'detail', 'timestamp', 'schemaValidationErrors'])
    assert.ok(field in res.body, `problem field ${field}`);
  if (title) assert.equal(res.body.title, title);
}

describeEachStore('clinic API (open instance)', (fresh) => {
  let app: ClinicApp;
  let c: CheckedClient;
  beforeEach(async () => {
    app = createClinicApp({ securityEnabled: false }, { contract, store: await fresh() });
    c = checkedClient(app);
  });

  it('answers health and its OpenAPI document, also under the relative /api forms', async () => {
    // The database's own status as the `db` component where the store has one (Spring's indicator).
    const db = app.locals.store.ping ? { components: { db: { status: 'UP' } } } : {};
    for (const path of ['/petclinic/actuator/health', `${API}/actuator/health`]) {
      assert.deepEqual((await c.get(path).expect(200)).body, { status: 'UP', ...db });
      assert.deepEqual((await c.get(`${path}/readiness`).expect(200)).body, { status: 'UP', ...db });
      assert.deepEqual((await c.get(`${path}/liveness`).expect(200)).body, { status: 'UP' });
    }
    for (const path of ['/petclinic/v3/api-docs', `${API}/v3/api-docs`]) {
      const doc = (await c.get(path).expect(200)).body;
      assert.ok(doc.paths['/api/owners'].post.responses['201']);
      assert.ok(doc.paths['/api/owners/{ownerId}'].put.responses['204']);
      assert.equal(doc.security, undefined, 'the open instance documents no security');
    }
  });

  it('filters owners by last-name prefix (case-sensitive) and 404s an empty v1 list', async () => {
    const davis = await c.get(`${API}/owners?lastName=Davis`).expect(200);
    assert.deepEqual(
      davis.body.map((o: { id: number }) => o.id),
      [2, 4],
    );
    assert.deepEqual(
      (await c.get(`${API}/owners?lastName=Da`).expect(200)).body.map((o: { id: number }) => o.id),
      [2, 4],
    );
    assert.equal((await c.get(`${API}/owners?lastName=`).expect(200)).body.length, 10);
    isProblem(await c.get(`${API}/owners?lastName=davis`), 404);
  });

  it('pages /v2/owners and /v2/pets as upstream, rejecting bad paging with 400', async () => {
    const res = await c.get(`${API}/v2/owners?size=3`).expect(200);
    assert.deepEqual(
      [res.body.page, res.body.size, res.body.totalElements, res.body.totalPages],
      [0, 3, 10, 4],
    );
    assert.deepEqual(
      res.body.content.map((o: { firstName: string }) => o.firstName),
      ['George', 'Betty', 'Eduardo'],
    );
    const defaults = (await c.get(`${API}/v2/owners`).expect(200)).body;
    assert.deepEqual([defaults.page, defaults.size, defaults.content.length], [0, 20, 10]);
    const davis = await c.get(`${API}/v2/owners?lastName=Davis&size=1`).expect(200);
    assert.deepEqual(
      [davis.body.totalElements, davis.body.totalPages, davis.body.content[0].firstName],
      [2, 2, 'Betty'],
    );
    const none = (await c.get(`${API}/v2/owners?lastName=zzz`).expect(200)).body;
    assert.deepEqual([none.content, none.totalElements, none.totalPages], [[], 0, 0]);
    assert.deepEqual((await c.get(`${API}/v2/owners?page=9`).expect(200)).body.content, []);
    const pets = (await c.get(`${API}/v2/pets?page=2&size=5`).expect(200)).body;
    assert.deepEqual(
      [pets.content.map((p: { id: number }) => p.id), pets.totalElements, pets.totalPages],
      [[11, 12, 13], 13, 3],
    );
    for (const q of ['page=-1', 'size=0', 'size=101', 'size=x', 'page=1.5', 'size=1e1', 'page=1&page=2'])
      isProblem(await c.get(`${API}/v2/owners?${q}`), 400);
    isProblem(await c.get(`${API}/v2/pets?size=101`), 400);
  });

  it('runs the CRUD journey with 201 + body + Location, 204 on update and delete, 404 after', async () => {
    const created = await c
      .post(`${API}/owners`)
      .send({ ...newOwner, id: null, extra: 'ignored' })
      .expect(201);
    const id = created.body.id;
    assert.equal(created.headers.location, `/api/owners/${id}`);
    assert.deepEqual(created.body, { ...newOwner, id, pets: [] });
    assert.deepEqual((await c.get(`${API}/owners/${id}/pets`).expect(200)).body, []);
    const pet = await c
      .post(`${API}/owners/${id}/pets`)
      .send({ ...newPet, type: { id: '2', name: 'whatever' } })
      .expect(201);
    assert.equal(pet.headers.location, `/api/pets/${pet.body.id}`);
    assert.deepEqual(pet.body.type, { name: 'dog', id: 2 });
    assert.equal(pet.body.ownerId, id);
    const visit = await c
      .post(`${API}/owners/${id}/pets/${pet.body.id}/visits`)
      .send({ date: '2026-01-02', description: 'check-up' })
      .expect(201);
    assert.equal(visit.headers.location, `/api/visits/${visit.body.id}`);
    assert.equal((await c.get(`${API}/owners/${id}/pets/${pet.body.id}`).expect(200)).body.visits.length, 1);
    assert.equal((await c.get(`${API}/owners/${id}/pets`).expect(200)).body.length, 1);
    const put = await c
      .put(`${API}/owners/${id}`)
      .send({ ...newOwner, city: 'Paris' })
      .expect(204);
    assert.equal(put.text, '');
    assert.equal((await c.get(`${API}/owners/${id}`)).body.city, 'Paris');
    await c
      .put(`${API}/owners/${id}/pets/${pet.body.id}`)
      .send({ ...newPet, name: 'Rexo' })
      .expect(204);
    await c
      .put(`${API}/pets/${pet.body.id}`)
      .send({ name: 'Rexy', birthDate: '2020-01-15', type: { id: 1, name: 'cat' } })
      .expect(204);
    assert.deepEqual(
      [
        (await c.get(`${API}/pets/${pet.body.id}`)).body.name,
        (await c.get(`${API}/pets/${pet.body.id}`)).body.type,
      ],
      ['Rexy', { name: 'cat', id: 1 }],
    );
    isProblem(await c.get(`${API}/owners/1/pets/${pet.body.id}`), 404); // not that owner's pet
    await c.delete(`${API}/owners/${id}`).expect(204);
    isProblem(await c.get(`${API}/owners/${id}`), 404);
    isProblem(await c.get(`${API}/pets/${pet.body.id}`), 404);
    isProblem(await c.get(`${API}/visits/${visit.body.id}`), 404);
    isProblem(await c.delete(`${API}/owners/${id}`), 404);
  });

  it('creates, reads, changes and deletes visits, pets, pet types, specialties and vets', async () => {
    const v = await c
      .post(`${API}/visits`)
      .send({ petId: '1', date: '2026-02-02', description: 'teeth' })
      .expect(201);
    assert.equal(v.body.petId, 1);
    assert.equal((await c.get(`${API}/visits`).expect(200)).body.length, 5);
    await c
      .put(`${API}/visits/${v.body.id}`)
      .send({ date: '2026-02-03', description: 'teeth again' })
      .expect(204);
    assert.equal((await c.get(`${API}/visits/${v.body.id}`).expect(200)).body.description, 'teeth again');
    await c.delete(`${API}/visits/${v.body.id}`).expect(204);
    isProblem(
      await c.post(`${API}/visits`).send({ petId: 999, description: 'x' }),
      404,
      'DataIntegrityViolationException',
    );

    await c.delete(`${API}/pets/7`).expect(204);
    isProblem(await c.get(`${API}/visits/1`), 404); // the pet's visits went with it

    const t = await c.post(`${API}/pettypes`).send({ name: 'zebra' }).expect(201);
    assert.equal(t.headers.location, `/api/pettypes/${t.body.id}`);
    await c.put(`${API}/pettypes/${t.body.id}`).send({ id: t.body.id, name: 'okapi' }).expect(204);
    assert.equal((await c.get(`${API}/pettypes/${t.body.id}`).expect(200)).body.name, 'okapi');
    await c.delete(`${API}/pettypes/${t.body.id}`).expect(204);
    assert.equal((await c.get(`${API}/pettypes`).expect(200)).body.length, 6);
    await c.delete(`${API}/pettypes/3`).expect(204); // lizard: Iggy (pet 5) goes too
    isProblem(await c.get(`${API}/pets/5`), 404);

    const s = await c.post(`${API}/specialties`).send({ name: 'cardiology' }).expect(201);
    await c.put(`${API}/specialties/${s.body.id}`).send({ name: 'cardio' }).expect(204);
    assert.deepEqual((await c.get(`${API}/specialties/${s.body.id}`).expect(200)).body, {
      id: s.body.id,
      name: 'cardio',
    });
    const vet = await c
      .post(`${API}/vets`)
      .send({ firstName: 'Doc', lastName: 'Brown', specialties: [{ name: 'cardio' }, { name: 'unknown' }] })
      .expect(201);
    assert.equal(vet.headers.location, `/api/vets/${vet.body.id}`);
    assert.deepEqual(vet.body.specialties, [{ id: s.body.id, name: 'cardio' }], 'unknown names are dropped');
    await c.delete(`${API}/specialties/${s.body.id}`).expect(204);
    assert.deepEqual((await c.get(`${API}/vets/${vet.body.id}`).expect(200)).body.specialties, []);
    await c
      .put(`${API}/vets/${vet.body.id}`)
      .send({ firstName: 'Emmett', lastName: 'Brown', specialties: [] })
      .expect(204);
    assert.equal((await c.get(`${API}/vets/${vet.body.id}`)).body.firstName, 'Emmett');
    await c.delete(`${API}/vets/${vet.body.id}`).expect(204);
    for (const path of ['vets', 'specialties', 'pettypes', 'visits', 'pets'])
      isProblem(await c.delete(`${API}/${path}/${vet.body.id + 100}`), 404);
  });

  it('validates bodies from the document: alphabetic telephone, missing fields, bad pet dates', async () => {
    const phone = await c.post(`${API}/owners`).send({ ...newOwner, telephone: 'abcdefghij' });
    isProblem(phone, 400, 'MethodArgumentNotValidException');
    assert.equal(phone.body.detail, 'The request contains invalid or missing parameters');
    assert.deepEqual(Object.keys(phone.body.schemaValidationErrors[0]).sort(), [
      'defaultMessage',
      'field',
      'message',
      'rejectedValue',
    ]);
    assert.equal(phone.body.schemaValidationErrors[0].field, 'telephone');
    assert.equal(phone.body.schemaValidationErrors[0].rejectedValue, 'abcdefghij');
    isProblem(await c.put(`${API}/owners/1`).send({ ...newOwner, telephone: '608555abcd' }), 400);
    const missing = await c.post(`${API}/owners`).send({ firstName: 'Ada' });
    isProblem(missing, 400);
    assert.deepEqual(
      [...new Set(missing.body.schemaValidationErrors.map((e: { field: string }) => e.field))].sort(),
      ['address', 'city', 'lastName', 'telephone'],
    );
    isProblem(await c.post(`${API}/owners`).send({ ...newOwner, telephone: '12345' }), 400);
    isProblem(await c.post(`${API}/owners`).send({ ...newOwner, firstName: 'R2D2' }), 400);
    assert.equal(
      (
        await c
          .post(`${API}/owners`)
          .send({ ...newOwner, lastName: 'Medeiros Jr.' })
          .expect(201)
      ).body.lastName,
      'Medeiros Jr.',
    );
    const future = await c.post(`${API}/owners/1/pets`).send({ ...newPet, birthDate: '2999-01-01' });
    isProblem(future, 400);
    assert.equal(future.body.schemaValidationErrors[0].defaultMessage, 'Birth date cannot be in the future');
    isProblem(await c.post(`${API}/owners/1/pets`).send({ ...newPet, birthDate: '1950-01-01' }), 400);
    isProblem(await c.post(`${API}/owners/1/pets`).send({ ...newPet, birthDate: 'yesterday' }), 400);
    isProblem(await c.post(`${API}/owners/1/pets`).send({ ...newPet, type: { id: 2 } }), 400);
    isProblem(
      await c.post(`${API}/owners/1/pets`).send({ ...newPet, type: { id: 99, name: 'dog' } }),
      404,
      'DataIntegrityViolationException',
    );
    isProblem(await c.post(`${API}/visits`).send({ description: 'no pet' }), 400);
    isProblem(await c.post(`${API}/owners/1/pets/1/visits`).send({ date: '2026-01-01' }), 400);
    isProblem(await c.post(`${API}/pettypes`).send({ name: '' }), 400);
    isProblem(await c.put(`${API}/pettypes/1`).send({ name: 'cat' }), 400); // PetType needs its id
    isProblem(await c.post(`${API}/specialties`).send({ name: 'x'.repeat(81) }), 400);
    isProblem(await c.post(`${API}/vets`).send({ firstName: 'A', lastName: 'B' }), 400);
  });

  it('answers unknown ids (0, past int32) with 404 and malformed ones with 400', async () => {
    for (const id of ['0', '2147483647', '99999', '99999999999999999999'])
      isProblem(await c.get(`${API}/owners/${id}`), 404);
    for (const id of ['-1', 'abc', '1.5', '1e3', '%201'])
      isProblem(await c.get(`${API}/owners/${id}`), 400, 'MethodArgumentNotValidException');
    isProblem(await c.get(`${API}/pets/0`), 404);
    isProblem(await c.get(`${API}/vets/0`), 404);
  });

  it('answers bad requests with the right 4xx (400, 405, 406, 415), never a 5xx', async () => {
    isProblem(
      await c.post(`${API}/owners`).set('Content-Type', 'application/json').send('{"firstName":'),
      400,
      'HttpMessageNotReadableException',
    );
    isProblem(await c.post(`${API}/owners`).type('text/plain').send('x'), 415);
    isProblem(
      await c.post(`${API}/owners`).set('Content-Type', 'application/json; charset=latin1').send('{}'),
      415,
    );
    // zstd: decoded by Node 24's zlib, not by Node 20's; refused on every line alike.
    for (const coding of ['x-custom', 'zstd']) {
      isProblem(
        await c
          .post(`${API}/owners`)
          .set('Content-Type', 'application/json')
          .set('Content-Encoding', coding)
          .send('{}'),
        415,
      );
    }
    isProblem(
      await c
        .post(`${API}/owners`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', 'gzip')
        .send('not gzip'),
      400,
      'BadRequestException',
    );
    isProblem(await c.post(`${API}/owners`).send({ big: 'x'.repeat(70_000) }), 413);
    isProblem(await c.get(`${API}/owners/1`).set('Accept', 'text/html'), 406);
    await c.get(`${API}/owners/1`).set('Accept', 'application/*').expect(200);
    const wrongMethod = await c.patch(`${API}/owners/1`);
    isProblem(wrongMethod, 405, 'HttpRequestMethodNotSupportedException');
    assert.equal(wrongMethod.headers.allow, 'GET, PUT, DELETE, HEAD, OPTIONS');
    isProblem(await c.delete(`${API}/owners`), 405);
    await c.options(`${API}/owners`).expect(204);
    isProblem(await c.get(`${API}/nope`), 404, 'NoResourceFoundException');
    isProblem(await c.get(`${API}/owners/`), 404, 'NoResourceFoundException');
    isProblem(await c.get(`${API}/oops`), 500, 'RuntimeException');
    // Shapes the validator must refuse without throwing: each one is a 4xx.
    const bodies: unknown[] = [
      [],
      'text',
      42,
      null,
      { ...newOwner, firstName: 7 },
      { ...newOwner, firstName: ['Ada'] },
      { ...newOwner, telephone: null },
      { ...newOwner, firstName: { $gt: '' } },
    ];
    for (const body of bodies) {
      const res = await c
        .post(`${API}/owners`)
        .set('Content-Type', 'application/json')
        .send(JSON.stringify(body));
      assert.ok(res.status >= 400 && res.status < 500, `${JSON.stringify(body)} -> ${res.status}`);
    }
    for (const type of [null, 'x', [], { id: -1, name: 'dog' }, { id: 'a', name: 'dog' }]) {
      const res = await c.post(`${API}/owners/1/pets`).send({ ...newPet, type });
      assert.equal(res.status, 400, `type ${JSON.stringify(type)}`);
    }
    for (const specialties of [null, 'x', [null], [{}], [{ name: {} }]]) {
      const res = await c.post(`${API}/vets`).send({ firstName: 'A', lastName: 'B', specialties });
      assert.equal(res.status, 400, `specialties ${JSON.stringify(specialties)}`);
    }
    for (const q of ['lastName=a&lastName=b', 'lastName=Davis&lastName=Black'])
      isProblem(await c.get(`${API}/owners?${q}`), 400);
  });

  it('keeps ids unique and loses no update under parallel requests', async () => {
    const owners = await Promise.all(
      Array.from({ length: 40 }, () => c.post(`${API}/owners`).send(newOwner).expect(201)),
    );
    const ids = owners.map((r) => r.body.id as number);
    assert.equal(new Set(ids).size, 40);
    // Parallel pets for one owner and parallel visits for one pet: every one of them is kept.
    const pets = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        c
          .post(`${API}/owners/${ids[0]}/pets`)
          .send({ ...newPet, name: `P${i}` })
          .expect(201),
      ),
    );
    assert.equal(new Set(pets.map((p) => p.body.id)).size, 30);
    await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        c
          .post(`${API}/owners/${ids[0]}/pets/${pets[0]!.body.id}/visits`)
          .send({ description: `v${i}` })
          .expect(201),
      ),
    );
    const owner = (await c.get(`${API}/owners/${ids[0]}`).expect(200)).body;
    assert.equal(owner.pets.length, 30);
    assert.equal(owner.pets.find((p: { id: number }) => p.id === pets[0]!.body.id).visits.length, 30);
    // Parallel updates of different owners: each owner keeps its own new city.
    await Promise.all(
      ids.map((id) =>
        c
          .put(`${API}/owners/${id}`)
          .send({ ...newOwner, city: `City${id}` })
          .expect(204),
      ),
    );
    for (const id of ids) assert.equal((await app.locals.store.owners.get(id))?.city, `City${id}`);
  });

  it("sends Spring Security's default headers on the open instance too, errors included", async () => {
    for (const res of [
      await c.get(`${API}/owners/1`).expect(200),
      await c.get(`${API}/owners/999`).expect(404),
    ]) {
      assert.equal(res.headers['x-content-type-options'], 'nosniff');
      assert.equal(res.headers['cache-control'], 'no-cache, no-store, max-age=0, must-revalidate');
      assert.equal(res.headers.pragma, 'no-cache');
      assert.equal(res.headers.expires, '0');
      assert.equal(res.headers['x-frame-options'], 'DENY');
    }
  });

  it('counts requests in /metrics by templated route', async () => {
    await c.get(`${API}/owners/1`);
    const text = (await request(app).get('/metrics').expect(200)).text;
    assert.match(
      text,
      /http_requests_total\{method="GET",route="\/petclinic\/api\/owners\/:ownerId",status="200",service="clinic"\} 1/,
    );
  });
});

describeEachStore('clinic API under hostile input', (fresh) => {
  let c: CheckedClient;
  beforeEach(async () => {
    c = checkedClient(createClinicApp({ securityEnabled: false }, { contract, store: await fresh() }));
  });

  it('answers a malformed percent-escape in any {id} with a 400 problem detail, on every method', async () => {
    for (const id of ['%E0', '%', '%zz', '%ff', '%c0%af']) {
      isProblem(await c.get(`${API}/owners/${id}`), 400, 'BadRequestException');
      isProblem(await c.put(`${API}/pets/${id}`).send(newPet), 400);
      isProblem(await c.delete(`${API}/visits/${id}`), 400);
      isProblem(await c.get(`${API}/owners/1/pets/${id}`), 400);
    }
  });

  it('refuses JSON nested 5,000 deep (at the top or inside a field) with 400, not a stack overflow', async () => {
    const deep = '['.repeat(5000) + ']'.repeat(5000);
    for (const body of [deep, `{"firstName":${deep}}`, `{"a":${'{"a":'.repeat(40)}1${'}'.repeat(40)}}`]) {
      const res = await c.post(`${API}/owners`).set('Content-Type', 'application/json').send(body);
      isProblem(res, 400, 'HttpMessageNotReadableException');
      assert.match(res.body.detail, /deeper than 32 levels/);
    }
  });

  it('titles 413 and 415 with the exception names, not BadRequestException', async () => {
    isProblem(
      await c.post(`${API}/owners`).send({ big: 'x'.repeat(70_000) }),
      413,
      'MaxUploadSizeExceededException',
    );
    isProblem(
      await c.post(`${API}/owners`).set('Content-Type', 'application/json; charset=latin1').send('{}'),
      415,
      'HttpMediaTypeNotSupportedException',
    );
  });

  it('refuses an empty or null required name of a pet, owner, vet, specialty and pet type with 400', async () => {
    const owner = { ...newOwner };
    const cases: [string, Record<string, unknown>, string][] = [
      [`${API}/owners/1/pets`, { ...newPet }, 'name'],
      [`${API}/owners`, owner, 'firstName'],
      [`${API}/owners`, owner, 'lastName'],
      [`${API}/vets`, { firstName: 'Ann', lastName: 'Vet', specialties: [] }, 'firstName'],
      [`${API}/vets`, { firstName: 'Ann', lastName: 'Vet', specialties: [] }, 'lastName'],
      [`${API}/specialties`, { name: 'x' }, 'name'],
      [`${API}/pettypes`, { name: 'x' }, 'name'],
    ];
    for (const [url, valid, field] of cases) {
      for (const bad of [null, '']) {
        const res = await c.post(url).send({ ...valid, [field]: bad });
        isProblem(res, 400, 'MethodArgumentNotValidException');
        const item = (res.body.schemaValidationErrors as { field: string; rejectedValue: string }[]).find(
          (e) => e.field === field,
        );
        assert.equal(item?.rejectedValue, bad === null ? 'null' : '', `${url} ${field}=${String(bad)}`);
      }
    }
  });
});
