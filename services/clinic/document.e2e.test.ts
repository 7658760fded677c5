import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import type { Json } from './document.js';
import { API, checkedClient } from './test-client.js';

const contract = loadContract();
const upstream = parse(readFileSync(new URL('./openapi.yml', import.meta.url), 'utf8')) as {
  paths: Record<string, Record<string, Json>>;
};
// The contract as the lead keeps it, beside the repository (absent in a bare checkout).
const SHARED = new URL('../../../shared/reference/petclinic/openapi.yml', import.meta.url);
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const admin = ['admin', 'pw'] as const;

describe('clinic OpenAPI document', () => {
  it('is upstream openapi.yml (the copy here equals the reference copy when present)', function () {
    if (!existsSync(SHARED)) this.skip();
    const normalize = (text: string) => JSON.stringify(parse(text));
    assert.equal(
      normalize(readFileSync(SHARED, 'utf8')),
      normalize(readFileSync(new URL('./openapi.yml', import.meta.url), 'utf8')),
    );
  });

  it('serves every upstream path and method, under /api', () => {
    for (const secured of [false, true]) {
      const served = contract.document(secured) as { paths: Record<string, Record<string, Json>> };
      for (const [path, item] of Object.entries(upstream.paths))
        for (const method of METHODS.filter((m) => item[m]))
          assert.ok(served.paths[`/api${path}`]?.[method], `${method} /api${path} missing`);
    }
  });

  for (const secured of [false, true]) {
    it(`routes every operation of the document it serves (${secured ? 'secured' : 'open'}): no 404 route miss, no 405`, async () => {
      const app = createClinicApp(
        { securityEnabled: secured, adminUser: admin[0], adminPassword: admin[1] },
        { contract },
      );
      const c = checkedClient(app);
      const doc = (await c.get('/petclinic/v3/api-docs').expect(200)).body as {
        paths: Record<string, Record<string, Json>>;
      };
      let operations = 0;
      // Deletes last, so the reads and writes before them still find the seed records.
      const order = (m: string) => (m === 'delete' ? 1 : 0);
      const ops = Object.entries(doc.paths)
        .flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => [path, m] as const))
        .sort((a, b) => order(a[1]) - order(b[1]));
      for (const [path, method] of ops) {
        const url = `/petclinic${path.replace(/\{[^}]+\}/g, '1')}`;
        let req = c[method as 'get'](url);
        if (secured) req = req.auth(...admin);
        const res = await (method === 'post' || method === 'put' ? req.send({}) : req);
        const label = `${method.toUpperCase()} ${url} -> ${res.status} ${res.text.slice(0, 120)}`;
        assert.notEqual(res.status, 405, label);
        assert.notEqual(res.body?.title, 'NoResourceFoundException', label);
        if (path !== '/api/oops') assert.ok(res.status < 500, label);
        operations++;
      }
      assert.ok(operations >= 40, `only ${operations} operations`);
    });
  }

  it('compiles validation from the served document: tightening the document changes what is accepted', async () => {
    const served = contract.document(false) as {
      components: { schemas: Record<string, { properties: Record<string, Json> }> };
    };
    assert.equal(served.components.schemas.OwnerFields!.properties.telephone!.pattern, '^[0-9]{10}$');
    const c = checkedClient(createClinicApp({ securityEnabled: false }, { contract }));
    const owner = { firstName: 'A', lastName: 'B', address: 'x', city: 'London' };
    await c
      .post(`${API}/owners`)
      .send({ ...owner, telephone: '123456789' })
      .expect(400);
    await c
      .post(`${API}/owners`)
      .send({ ...owner, telephone: '1234567890' })
      .expect(201);
    // The same app on a document whose city allows 3 characters: the served document and the
    // validator both change, because the validator is compiled from that document.
    const narrowed = structuredClone(upstream) as unknown as {
      components: { schemas: { OwnerFields: { properties: { city: Json } } } };
    };
    narrowed.components.schemas.OwnerFields.properties.city.maxLength = 3;
    const other = loadContract(narrowed as unknown as Json);
    const o = checkedClient(createClinicApp({ securityEnabled: false }, { contract: other }));
    const servedCity = (await o.get('/petclinic/v3/api-docs').expect(200)).body.components.schemas.OwnerFields
      .properties.city;
    assert.equal(servedCity.maxLength, 3);
    const res = await o
      .post(`${API}/owners`)
      .send({ ...owner, telephone: '1234567890' })
      .expect(400);
    assert.equal(res.body.schemaValidationErrors[0].field, 'city');
  });
});
