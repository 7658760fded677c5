// The clinic under hostile input. Every operation of the document it serves gets the
// corpus of services/shared/hostile (bad escapes in ids, odd methods and headers, framing lies,
// malformed, deep, huge and wrongly typed bodies, prototype keys); both instances must answer every
// request, never with a 5xx, with a JSON body on every 4xx, and stay up.
import assert from 'node:assert/strict';
import { hostileCorpus, sampleEvenly, type RouteUnderTest } from '../shared/hostile/corpus.js';
import { probe, violations } from '../shared/hostile/probe.js';
import { listen, type StartedServer } from '../shared/server.js';
import { createClinicApp } from './app.js';
import { loadContract } from './contract.js';
import type { Json } from './document.js';
import { describeEachStore } from './store/test-stores.js';

const contract = loadContract();
const ADMIN = ['hostile-admin', 'hostile-admin-secret'] as const;

/** A plausible value for a schema: its example, else one of its type (readOnly fields left out). */
function sample(schema: Json | undefined, components: Json, depth = 0): unknown {
  if (!schema || depth > 6) return null;
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return sample((components.schemas as Record<string, Json>)[name], components, depth + 1);
  }
  if (Array.isArray(schema.allOf))
    return Object.assign({}, ...(schema.allOf as Json[]).map((part) => sample(part, components, depth + 1)));
  if ('example' in schema) return schema.example;
  if (schema.type === 'array') return [sample(schema.items as Json, components, depth + 1)];
  if (schema.type === 'integer' || schema.type === 'number') return 1;
  if (schema.type === 'boolean') return true;
  if (schema.type === 'string') return schema.format === 'date' ? '2020-01-01' : 'x';
  const properties = Object.entries((schema.properties as Record<string, Json> | undefined) ?? {});
  return Object.fromEntries(
    properties.filter(([, p]) => p.readOnly !== true).map(([k, p]) => [k, sample(p, components, depth + 1)]),
  );
}

/** Every operation of the served document, with a sample body where it takes one. /oops is left
 * out: it answers 500 on purpose (upstream's showcase of an unhandled exception). */
export function clinicRoutes(document: Json): RouteUnderTest[] {
  const components = document.components as Json;
  const base = '/petclinic';
  const routes: RouteUnderTest[] = [];
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    if (path.endsWith('/oops')) continue;
    for (const [method, op] of Object.entries(item)) {
      if (!op || typeof op !== 'object' || !('responses' in op)) continue;
      const schema = (
        ((op.requestBody as Json | undefined)?.content as Json | undefined)?.['application/json'] as
          Json | undefined
      )?.schema as Json | undefined;
      const body = schema ? sample(schema, components) : undefined;
      routes.push({
        method: method.toUpperCase(),
        template: `${base}${path}`,
        body:
          body && typeof body === 'object' && !Array.isArray(body)
            ? (body as Record<string, unknown>)
            : undefined,
      });
    }
  }
  return [...routes, { method: 'GET', template: '/metrics' }, { method: 'GET', template: '/petclinic/' }];
}

const basic = `Basic ${Buffer.from(ADMIN.join(':')).toString('base64')}`;

// The same corpus on both stores: a case the memory store takes and PostgreSQL refuses, or
// the other way round, shows up as a 5xx or a hang on one of them.
describeEachStore('clinic under hostile input', (fresh) => {
  const servers: StartedServer[] = [];
  after(() => Promise.all(servers.map((s) => s.close())));

  for (const secured of [false, true]) {
    it(`${secured ? 'secured' : 'open'} instance: no 5xx, no hang, JSON on every 4xx, still up`, async function () {
      this.timeout(240_000);
      const app = createClinicApp(
        { securityEnabled: secured, adminUser: ADMIN[0], adminPassword: ADMIN[1] },
        { contract, store: await fresh() },
      );
      await app.locals.ready;
      const server = await listen(app, 0, '127.0.0.1');
      servers.push(server);
      const routes = clinicRoutes(contract.document(secured) as Json);
      const corpus = hostileCorpus(routes);
      // The whole corpus on the open instance; an even sample on the secured one, whose requests
      // carry the admin's credentials (those with their own Authorization test that instead).
      const chosen = secured ? sampleEvenly(corpus, 1200) : corpus;
      const outcomes = await probe(server.url, chosen, {
        headers: secured ? [['Authorization', basic]] : [],
        timeoutMs: 15_000,
      });
      assert.deepEqual(violations(outcomes).slice(0, 20), []);
      assert.ok(routes.length >= 30, `${routes.length} routes walked`);
      assert.ok(outcomes.filter((o) => o.status && o.status < 300).length > 0, 'some requests still succeed');
      assert.equal(
        (Object.prototype as Record<string, unknown>).polluted,
        undefined,
        'no prototype pollution',
      );
      const health = await fetch(`${server.url}/petclinic/actuator/health`);
      assert.equal(health.status, 200);
      console.log(`      ${chosen.length} hostile requests on ${routes.length} routes`);
    });
  }
});
