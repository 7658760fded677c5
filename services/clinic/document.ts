// The document the clinic serves at /v3/api-docs, derived from the upstream openapi.yml so that it
// describes what the clinic really does: the statuses upstream's code returns (201 + Location on
// create, 204 on update/delete, 404 for an empty v1 list), the 4xx the clinic answers where upstream
// falls into its 500 catch-all, the rules upstream enforces only in its entities (10-digit telephone,
// 20-character usernames, at least one role) and, on the secured instance, HTTP Basic with 401/403.
// The request validators are compiled from this same document (contract.ts): one source of truth.

export type Json = Record<string, unknown>;
type Operation = Json & { parameters?: Json[]; responses: Record<string, Json>; requestBody?: Json };
type PathItem = Record<string, Operation>;

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options'] as const;

const problem = (description: string): Json => ({
  description,
  content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/ProblemDetail' } } },
});

/** v1 list endpoints answer 404 (no body upstream, a problem detail here) when the list is empty. */
const V1_LISTS = new Set(['/owners', '/pets', '/visits', '/pettypes', '/specialties', '/vets']);

/** The clinic's additions to upstream's paths (marked x-clinic so readers can tell them apart). */
function clinicPaths(upstream: Record<string, PathItem>): Record<string, PathItem> {
  const ownerId = upstream['/owners/{ownerId}']?.get?.parameters?.[0];
  return {
    '/owners/{ownerId}/pets': {
      get: {
        tags: ['pets'],
        operationId: 'listOwnersPets',
        summary: "Lists an owner's pets",
        description:
          "The pets of one owner, sorted by name (the spec lists GET on this path; upstream maps only POST). An owner without pets gives []. x-clinic: not in upstream's document.",
        'x-clinic': true,
        parameters: ownerId ? [structuredClone(ownerId)] : [],
        responses: {
          '200': {
            description: "The owner's pets.",
            content: {
              'application/json': { schema: { type: 'array', items: { $ref: '#/components/schemas/Pet' } } },
            },
          },
          '404': problem('Owner not found.'),
        },
      },
    },
  };
}

/** Rules upstream enforces below its DTOs (JPA entity, DB columns, service); the clinic checks them up front with 400. */
function tightenSchemas(schemas: Record<string, Json & { properties?: Record<string, Json> }>): void {
  const telephone = schemas.OwnerFields?.properties?.telephone;
  if (telephone) {
    Object.assign(telephone, { minLength: 10, maxLength: 10, pattern: '^[0-9]{10}$' });
    telephone.description = `${String(telephone.description ?? '')} Exactly 10 digits (upstream's entity rule).`;
  }
  const user = schemas.User;
  if (user?.properties) {
    const username = user.properties.username;
    if (username) username.maxLength = 20; // upstream's users.username is VARCHAR(20)
    const roles = user.properties.roles;
    if (roles) roles.minItems = 1;
    user.required = ['username', 'password', 'roles'];
  }
  // Upstream's entity refuses an empty pet name; without minLength, ajv's coercion also turned
  // `"name": null` into "" and accepted it.
  const petName = schemas.PetFields?.properties?.name;
  if (petName) petName.minLength = 1;
  const pet = schemas.PetFields?.properties?.birthDate;
  if (pet)
    pet.description = `${String(pet.description ?? '')} Not in the future and not more than 50 years ago (checked by the server, 400 otherwise).`;
}

function adjustOperation(path: string, method: string, op: Operation, secured: boolean): void {
  const r = op.responses;
  delete r['304']; // ETag/304 are documented upstream but not implemented there either
  for (const response of Object.values(r)) {
    const headers = response.headers as Record<string, unknown> | undefined;
    if (headers) {
      delete headers.ETag;
      if (Object.keys(headers).length === 0) delete response.headers;
    }
  }
  const ok = r['200'];
  if (path === '/oops')
    delete r['200']; // "never returned"
  else if (method === 'post' && ok) {
    delete r['200'];
    r['201'] = ok;
  } else if ((method === 'put' || method === 'delete') && ok) {
    delete r['200'];
    r['204'] = { description: 'Done; no content.' };
  }
  const created = r['201'];
  if (created && path !== '/users')
    created.headers = {
      Location: { description: 'The new resource, as /api/...', schema: { type: 'string' } },
    };
  // Error bodies are problem details, sent as application/problem+json.
  for (const [status, response] of Object.entries(r)) {
    if (Number(status) >= 400) r[status] = problem(String(response.description ?? 'Error.'));
  }
  for (const param of op.parameters ?? []) {
    if (param.in === 'path' && (param.schema as Json | undefined)?.type === 'integer')
      param.description = `${String(param.description ?? '')} An id of digits beyond int32 names no resource: 404.`;
  }
  const hasParams = (op.parameters?.length ?? 0) > 0;
  if ((hasParams || op.requestBody) && !r['400']) r['400'] = problem('Bad request.');
  if (method === 'get' && V1_LISTS.has(path)) r['404'] = problem('The list is empty.');
  if (path.includes('{') && !r['404']) r['404'] = problem('Not found.');
  if (op.requestBody) {
    r['413'] = problem('Request body too large.');
    r['415'] = problem('Content-Type is not application/json.');
  }
  if (path === '/users') r['409'] = problem('The username is taken.');
  r['406'] = problem('The Accept header does not allow application/json.');
  if (!r['500']) r['500'] = problem('Server error.');
  r['503'] = problem(
    'The database is unavailable or did not answer in time; retry after Retry-After seconds.',
  );
  if (secured) {
    r['401'] = problem('Missing or wrong credentials (with WWW-Authenticate: Basic realm="Realm").');
    r['403'] = problem('The user lacks the role this operation needs.');
    r['429'] = problem(
      'Too many password checks waiting for this client or user; retry after Retry-After seconds.',
    );
  }
}

/** Spring Boot's health shape: overall status, and the database's as the `db` component. */
const healthResponses = (what: string): Record<string, Json> => {
  const status = { type: 'string', enum: ['UP', 'DOWN'] };
  const schema = {
    type: 'object',
    properties: {
      status,
      components: {
        type: 'object',
        properties: { db: { type: 'object', properties: { status }, required: ['status'] } },
      },
    },
    required: ['status'],
  };
  return {
    '200': { description: `Up${what}.`, content: { 'application/json': { schema } } },
    '503': { description: `Down${what}.`, content: { 'application/json': { schema } } },
  };
};

const probe = (operationId: string, summary: string, what: string): PathItem => ({
  get: { tags: ['actuator'], operationId, summary, security: [], responses: healthResponses(what) },
});

const HEALTH_AND_DOCS: Record<string, PathItem> = {
  '/actuator/health': probe(
    'health',
    'Health probe (no credentials needed): DOWN with 503 when the database does not answer within 1 s',
    ' (the database answers)',
  ),
  '/actuator/health/readiness': probe(
    'readiness',
    'Readiness probe: the same as /actuator/health (route traffic here only while the database answers)',
    ' (the database answers)',
  ),
  '/actuator/health/liveness': probe(
    'liveness',
    'Liveness probe: UP while the process serves requests, whatever the database (do not restart for an outage)',
    '',
  ),
  '/v3/api-docs': {
    get: {
      tags: ['actuator'],
      operationId: 'apiDocs',
      summary: 'This document (no credentials needed)',
      security: [],
      responses: {
        '200': {
          description: 'The OpenAPI document.',
          content: { 'application/json': { schema: { type: 'object', required: ['openapi', 'paths'] } } },
        },
      },
    },
  },
};

/** The served document for an open (secured=false) or secured instance. */
export function clinicDocument(upstream: Json, secured: boolean): Json {
  // A JSON round trip, not structuredClone: YAML aliases would otherwise stay shared objects.
  const doc = JSON.parse(JSON.stringify(upstream)) as Json & {
    paths: Record<string, PathItem>;
    components: Json & { schemas: Record<string, Json> };
  };
  doc.info = {
    ...(doc.info as Json),
    description:
      'The loadlab clinic: a re-implementation of Spring PetClinic REST. This document is derived from upstream openapi.yml and describes what this server answers.',
  };
  doc.servers = [{ url: '/petclinic', description: 'loadlab clinic' }];
  tightenSchemas(doc.components.schemas as Record<string, Json & { properties?: Record<string, Json> }>);
  const merged: Record<string, PathItem> = { ...doc.paths };
  for (const [path, item] of Object.entries(clinicPaths(doc.paths)))
    merged[path] = { ...merged[path], ...item };
  const paths: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(merged)) {
    for (const method of METHODS) {
      const op = item[method];
      if (op) adjustOperation(path, method, op, secured);
    }
    paths[`/api${path}`] = item;
  }
  // The spec's relative forms (/petclinic/api/actuator/health, /petclinic/api/v3/api-docs) exist too.
  const probes: Record<string, PathItem> = {};
  for (const [path, item] of Object.entries(HEALTH_AND_DOCS)) {
    probes[path] = structuredClone(item);
    probes[`/api${path}`] = structuredClone(item);
    for (const op of Object.values(probes[`/api${path}`]!))
      op.operationId = `${String(op.operationId)}UnderApi`;
  }
  doc.paths = { ...probes, ...paths };
  doc.tags = [...((doc.tags as Json[] | undefined) ?? []), { name: 'actuator', description: 'Probes.' }];
  if (secured) {
    doc.components.securitySchemes = { basicAuth: { type: 'http', scheme: 'basic' } };
    doc.security = [{ basicAuth: [] }];
  }
  return doc;
}
