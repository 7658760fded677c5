// The clinic: a PetClinic-REST-compatible API under /petclinic/api, validated by the upstream
// OpenAPI document, with upstream's status codes, seed data, roles and problem details.
import express, { type NextFunction, type Request, type RequestHandler, type Response } from 'express';
import type { Logger } from '../shared/logger.js';
import { createHttpMetrics } from '../shared/metrics.js';
import type { ClinicConfig } from './config.js';
import { loadContract, type Contract } from './contract.js';
import { ClinicProblem, invalid, notFound, sendClinicProblem } from './problems.js';
import { authenticate, hashPassword, requireRole, ROLES } from './security.js';
import { createMemoryStore } from './store/memory.js';
import { seed } from './store/seed.js';
import type {
  ClinicStore,
  NamedRecord,
  OwnerRecord,
  PetRecord,
  VetRecord,
  VisitRecord,
} from './store/types.js';

interface Answer {
  status: number;
  body?: unknown;
  location?: string;
}

type Handler = (req: Request) => Answer;

const byName = (a: { name: string }, b: { name: string }) =>
  a.name.toLowerCase().localeCompare(b.name.toLowerCase());
const MAX_AGE_YEARS = 50;

function views(store: ClinicStore) {
  const type = (id: number) => {
    const t = store.petTypes.get(id);
    return t ? { name: t.name, id: t.id } : null;
  };
  const visit = (v: VisitRecord) => ({ date: v.date, description: v.description, id: v.id, petId: v.petId });
  const pet = (p: PetRecord) => ({
    name: p.name,
    birthDate: p.birthDate,
    type: type(p.typeId),
    id: p.id,
    ownerId: p.ownerId,
    visits: store.visits
      .list((v) => v.petId === p.id)
      .sort((a, b) => b.date.localeCompare(a.date))
      .map(visit),
  });
  const owner = (o: OwnerRecord) => ({
    firstName: o.firstName,
    lastName: o.lastName,
    address: o.address,
    city: o.city,
    telephone: o.telephone,
    id: o.id,
    pets: store.pets
      .list((p) => p.ownerId === o.id)
      .sort(byName)
      .map(pet),
  });
  const specialty = (s: NamedRecord) => ({ id: s.id, name: s.name });
  const vet = (v: VetRecord) => ({
    firstName: v.firstName,
    lastName: v.lastName,
    specialties: v.specialtyIds
      .map((id) => store.specialties.get(id))
      .filter((s): s is NamedRecord => s !== undefined)
      .sort(byName)
      .map(specialty),
    id: v.id,
  });
  return { type, visit, pet, owner, specialty, vet };
}

function idParam(req: Request, name: string): number {
  const raw = req.params[name];
  const id = Number(raw);
  if (!/^\d+$/.test(String(raw)) || !Number.isSafeInteger(id) || id > 2_147_483_647) {
    throw invalid([
      {
        message: `Parameter '${name}' must be a non-negative int32 (rejected value: ${raw})`,
        field: name,
        rejectedValue: String(raw),
        defaultMessage: 'must be a non-negative integer',
      },
    ]);
  }
  return id;
}

function queryInt(req: Request, name: string, fallback: number, min: number, max: number): number {
  const raw = req.query[name];
  if (raw === undefined) return fallback;
  const n = Number(raw);
  if (typeof raw !== 'string' || !/^-?\d+$/.test(raw) || n < min || n > max) {
    throw invalid([
      {
        message: `Parameter '${name}' must be between ${min} and ${max} (rejected value: ${String(raw)})`,
        field: name,
        rejectedValue: String(raw),
        defaultMessage: `must be between ${min} and ${max}`,
      },
    ]);
  }
  return n;
}

/** Rules the document cannot express: the 10-digit telephone and the pet's age window. */
function checkTelephone(telephone: string): void {
  if (!/^[0-9]{10}$/.test(telephone)) {
    throw invalid([
      {
        message: `Field 'telephone' Phone number must be exactly 10 digits (rejected value: ${telephone})`,
        field: 'telephone',
        rejectedValue: telephone,
        defaultMessage: 'Phone number must be exactly 10 digits',
      },
    ]);
  }
}

function checkBirthDate(birthDate: string): void {
  const today = new Date().toISOString().slice(0, 10);
  const limit = new Date();
  limit.setUTCFullYear(limit.getUTCFullYear() - MAX_AGE_YEARS);
  const reason =
    birthDate > today
      ? 'Birth date cannot be in the future'
      : birthDate < limit.toISOString().slice(0, 10)
        ? `Birth date cannot be older than ${MAX_AGE_YEARS} years`
        : undefined;
  if (reason)
    throw invalid([
      {
        message: `Field 'birthDate' ${reason} (rejected value: ${birthDate})`,
        field: 'birthDate',
        rejectedValue: birthDate,
        defaultMessage: reason,
      },
    ]);
}

function page<T>(items: T[], pageIndex: number, size: number) {
  return {
    content: items.slice(pageIndex * size, pageIndex * size + size),
    page: pageIndex,
    size,
    totalElements: items.length,
    totalPages: Math.ceil(items.length / size),
  };
}

export interface ClinicApp extends express.Express {
  /** The instance's state, for tests. */
  locals: express.Express['locals'] & { store: ClinicStore; contract: Contract };
}

export function createClinicApp(
  config: ClinicConfig,
  deps: { logger?: Logger; store?: ClinicStore; contract?: Contract } = {},
): ClinicApp {
  const store = deps.store ?? createMemoryStore();
  if (!deps.store) seed(store);
  const contract = deps.contract ?? loadContract();
  if (
    config.securityEnabled &&
    config.adminPassword &&
    store.users.list((u) => u.username === config.adminUser).length === 0
  ) {
    store.users.insert({
      username: config.adminUser ?? 'admin',
      passwordHash: hashPassword(config.adminPassword),
      enabled: true,
      roles: Object.values(ROLES),
    });
  }
  const view = views(store);
  const app = express() as unknown as ClinicApp;
  app.locals.store = store;
  app.locals.contract = contract;
  const metrics = createHttpMetrics({
    defaultLabels: { service: config.securityEnabled ? 'clinic-secure' : 'clinic' },
  });

  app.disable('x-powered-by');
  app.set('etag', false);
  app.use(metrics.middleware);
  app.get('/metrics', metrics.handler);
  const health = (_req: Request, res: Response) => res.json({ status: 'UP' });
  const docs = (_req: Request, res: Response) => res.json(contract.document);
  // Readiness probes (compose healthchecks, npm run lab) must work without credentials.
  for (const base of ['/petclinic', '/petclinic/api']) {
    app.get(`${base}/actuator/health`, health);
    app.get(`${base}/v3/api-docs`, docs);
  }
  app.get('/petclinic/', (_req, res) => res.redirect(302, '/petclinic/v3/api-docs'));

  const api = express.Router({ strict: true });
  if (config.securityEnabled) {
    api.use(authenticate(store));
    api.use((_req, res, next) => {
      res.setHeader('X-Content-Type-Options', 'nosniff');
      res.setHeader('Cache-Control', 'no-cache, no-store, max-age=0, must-revalidate');
      next();
    });
  }
  // Body handling only where bodies exist: reads (the hot path of a load test) skip it entirely.
  const jsonBody: RequestHandler[] = [
    (req, _res, next) => {
      if (req.headers['content-length'] !== '0' && !req.is('application/json')) {
        next(
          new ClinicProblem(
            415,
            'HttpMediaTypeNotSupportedException',
            "Content-Type must be 'application/json'",
          ),
        );
        return;
      }
      next();
    },
    express.json({ limit: '64kb' }),
  ];

  const any = (...roles: string[]) => (config.securityEnabled ? [requireRole(store, ...roles)] : []);
  const route = (
    method: 'get' | 'post' | 'put' | 'delete',
    path: string,
    roles: string[],
    handler: Handler,
  ) => {
    const operationPath = path.replace(/:(\w+)/g, '{$1}');
    const body = method === 'post' || method === 'put' ? jsonBody : [];
    api[method](path, ...any(...roles), ...body, (req: Request, res: Response) => {
      if (method === 'post' || method === 'put') {
        const errors = contract.validateBody(operationPath, method, req.body);
        if (errors.length > 0) throw invalid(errors);
      }
      const answer = handler(req);
      if (answer.location) res.location(answer.location);
      if (answer.body === undefined) res.status(answer.status).end();
      else res.status(answer.status).json(answer.body);
    });
  };
  const O = [ROLES.OWNER_ADMIN];
  const V = [ROLES.VET_ADMIN];
  const nonEmpty = <T>(items: T[], what: string): Answer => {
    if (items.length === 0) throw notFound(what);
    return { status: 200, body: items };
  };
  const need = <T>(record: T | undefined, what: string): T => {
    if (record === undefined) throw notFound(what);
    return record;
  };
  const ownerFields = (b: OwnerRecord): Omit<OwnerRecord, 'id'> => {
    checkTelephone(b.telephone);
    return {
      firstName: b.firstName,
      lastName: b.lastName,
      address: b.address,
      city: b.city,
      telephone: b.telephone,
    };
  };
  const petFields = (
    b: { name: string; birthDate: string; type: { id: number } },
    ownerId: number,
  ): Omit<PetRecord, 'id'> => {
    checkBirthDate(b.birthDate);
    if (!store.petTypes.get(Number(b.type.id)))
      throw new ClinicProblem(
        404,
        'DataIntegrityViolationException',
        'The requested resource could not be processed due to a data constraint violation',
      );
    return { name: b.name, birthDate: b.birthDate, typeId: Number(b.type.id), ownerId };
  };
  const lastNamePrefix = (req: Request) => (typeof req.query.lastName === 'string' ? req.query.lastName : '');
  const ownersByLastName = (req: Request) =>
    store.owners.list((o) => o.lastName.startsWith(lastNamePrefix(req)));
  const visitFields = (b: { date?: string; description: string }, petId: number): Omit<VisitRecord, 'id'> => {
    if (!store.pets.get(petId))
      throw new ClinicProblem(
        404,
        'DataIntegrityViolationException',
        'The requested resource could not be processed due to a data constraint violation',
      );
    return { petId, date: b.date ?? new Date().toISOString().slice(0, 10), description: b.description };
  };
  const specialtyIdsByName = (list: { name: string }[]) =>
    list
      .map((s) => store.specialties.list((x) => x.name === s.name)[0]?.id)
      .filter((id): id is number => id !== undefined);

  route('get', '/oops', [], () => {
    throw new ClinicProblem(
      500,
      'RuntimeException',
      'Expected: controller used to showcase what happens when an exception is thrown',
    );
  });
  // Owners
  route('get', '/owners', O, (req) => nonEmpty(ownersByLastName(req).map(view.owner), 'owners'));
  route('post', '/owners', O, (req) => {
    const owner = store.owners.insert(ownerFields(req.body));
    return { status: 201, body: view.owner(owner), location: `/api/owners/${owner.id}` };
  });
  route('get', '/owners/:ownerId', O, (req) => ({
    status: 200,
    body: view.owner(need(store.owners.get(idParam(req, 'ownerId')), 'owner')),
  }));
  route('put', '/owners/:ownerId', O, (req) => {
    if (!store.owners.update(idParam(req, 'ownerId'), ownerFields(req.body))) throw notFound('owner');
    return { status: 204 };
  });
  route('delete', '/owners/:ownerId', O, (req) => {
    const id = idParam(req, 'ownerId');
    need(store.owners.get(id), 'owner');
    for (const pet of store.pets.list((p) => p.ownerId === id)) {
      for (const v of store.visits.list((x) => x.petId === pet.id)) store.visits.delete(v.id);
      store.pets.delete(pet.id);
    }
    store.owners.delete(id);
    return { status: 204 };
  });
  route('post', '/owners/:ownerId/pets', O, (req) => {
    const ownerId = idParam(req, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    const pet = store.pets.insert(petFields(req.body, ownerId));
    return { status: 201, body: view.pet(pet), location: `/api/pets/${pet.id}` };
  });
  const ownersPet = (req: Request) => {
    const ownerId = idParam(req, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    const pet = store.pets.get(idParam(req, 'petId'));
    if (!pet || pet.ownerId !== ownerId) throw notFound('pet');
    return pet;
  };
  route('get', '/owners/:ownerId/pets/:petId', O, (req) => ({ status: 200, body: view.pet(ownersPet(req)) }));
  route('put', '/owners/:ownerId/pets/:petId', O, (req) => {
    const pet = ownersPet(req);
    store.pets.update(pet.id, petFields(req.body, pet.ownerId));
    return { status: 204 };
  });
  route('post', '/owners/:ownerId/pets/:petId/visits', O, (req) => {
    const pet = ownersPet(req);
    const visit = store.visits.insert(visitFields(req.body, pet.id));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/v2/owners', O, (req) => ({
    status: 200,
    body: page(
      ownersByLastName(req).map(view.owner),
      queryInt(req, 'page', 0, 0, 2_147_483_647),
      queryInt(req, 'size', 20, 1, 100),
    ),
  }));
  // Pets
  route('get', '/pets', O, () => nonEmpty(store.pets.list().map(view.pet), 'pets'));
  route('get', '/v2/pets', O, (req) => ({
    status: 200,
    body: page(
      store.pets.list().map(view.pet),
      queryInt(req, 'page', 0, 0, 2_147_483_647),
      queryInt(req, 'size', 20, 1, 100),
    ),
  }));
  route('get', '/pets/:petId', O, (req) => ({
    status: 200,
    body: view.pet(need(store.pets.get(idParam(req, 'petId')), 'pet')),
  }));
  route('put', '/pets/:petId', O, (req) => {
    const pet = need(store.pets.get(idParam(req, 'petId')), 'pet');
    store.pets.update(pet.id, petFields(req.body, pet.ownerId));
    return { status: 204 };
  });
  route('delete', '/pets/:petId', O, (req) => {
    const id = idParam(req, 'petId');
    need(store.pets.get(id), 'pet');
    for (const v of store.visits.list((x) => x.petId === id)) store.visits.delete(v.id);
    store.pets.delete(id);
    return { status: 204 };
  });
  // Visits
  route('get', '/visits', O, () => nonEmpty(store.visits.list().map(view.visit), 'visits'));
  route('post', '/visits', O, (req) => {
    const visit = store.visits.insert(visitFields(req.body, Number(req.body.petId)));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/visits/:visitId', O, (req) => ({
    status: 200,
    body: view.visit(need(store.visits.get(idParam(req, 'visitId')), 'visit')),
  }));
  route('put', '/visits/:visitId', O, (req) => {
    const visit = need(store.visits.get(idParam(req, 'visitId')), 'visit');
    store.visits.update(visit.id, {
      petId: visit.petId,
      date: req.body.date ?? visit.date,
      description: req.body.description,
    });
    return { status: 204 };
  });
  route('delete', '/visits/:visitId', O, (req) => {
    if (!store.visits.delete(idParam(req, 'visitId'))) throw notFound('visit');
    return { status: 204 };
  });
  // Pet types
  route('get', '/pettypes', [...O, ...V], () =>
    nonEmpty(
      store.petTypes.list().map((t) => view.type(t.id)),
      'pet types',
    ),
  );
  route('get', '/pettypes/:petTypeId', [...O, ...V], (req) => ({
    status: 200,
    body: view.type(need(store.petTypes.get(idParam(req, 'petTypeId')), 'pet type').id),
  }));
  route('post', '/pettypes', V, (req) => {
    const t = store.petTypes.insert({ name: req.body.name });
    return { status: 201, body: view.type(t.id), location: `/api/pettypes/${t.id}` };
  });
  route('put', '/pettypes/:petTypeId', V, (req) => {
    if (!store.petTypes.update(idParam(req, 'petTypeId'), { name: req.body.name }))
      throw notFound('pet type');
    return { status: 204 };
  });
  route('delete', '/pettypes/:petTypeId', V, (req) => {
    const id = idParam(req, 'petTypeId');
    need(store.petTypes.get(id), 'pet type');
    for (const pet of store.pets.list((p) => p.typeId === id)) {
      for (const v of store.visits.list((x) => x.petId === pet.id)) store.visits.delete(v.id);
      store.pets.delete(pet.id);
    }
    store.petTypes.delete(id);
    return { status: 204 };
  });
  // Specialties
  route('get', '/specialties', V, () =>
    nonEmpty(store.specialties.list().map(view.specialty), 'specialties'),
  );
  route('post', '/specialties', V, (req) => {
    const s = store.specialties.insert({ name: req.body.name });
    return { status: 201, body: view.specialty(s), location: `/api/specialties/${s.id}` };
  });
  route('get', '/specialties/:specialtyId', V, (req) => ({
    status: 200,
    body: view.specialty(need(store.specialties.get(idParam(req, 'specialtyId')), 'specialty')),
  }));
  route('put', '/specialties/:specialtyId', V, (req) => {
    if (!store.specialties.update(idParam(req, 'specialtyId'), { name: req.body.name }))
      throw notFound('specialty');
    return { status: 204 };
  });
  route('delete', '/specialties/:specialtyId', V, (req) => {
    const id = idParam(req, 'specialtyId');
    if (!store.specialties.delete(id)) throw notFound('specialty');
    for (const vet of store.vets.list((v) => v.specialtyIds.includes(id))) {
      store.vets.update(vet.id, { ...vet, specialtyIds: vet.specialtyIds.filter((s) => s !== id) });
    }
    return { status: 204 };
  });
  // Vets
  route('get', '/vets', V, () => nonEmpty(store.vets.list().map(view.vet), 'vets'));
  route('post', '/vets', V, (req) => {
    const vet = store.vets.insert({
      firstName: req.body.firstName,
      lastName: req.body.lastName,
      specialtyIds: specialtyIdsByName(req.body.specialties),
    });
    return { status: 201, body: view.vet(vet), location: `/api/vets/${vet.id}` };
  });
  route('get', '/vets/:vetId', V, (req) => ({
    status: 200,
    body: view.vet(need(store.vets.get(idParam(req, 'vetId')), 'vet')),
  }));
  route('put', '/vets/:vetId', V, (req) => {
    if (
      !store.vets.update(idParam(req, 'vetId'), {
        firstName: req.body.firstName,
        lastName: req.body.lastName,
        specialtyIds: specialtyIdsByName(req.body.specialties),
      })
    )
      throw notFound('vet');
    return { status: 204 };
  });
  route('delete', '/vets/:vetId', V, (req) => {
    if (!store.vets.delete(idParam(req, 'vetId'))) throw notFound('vet');
    return { status: 204 };
  });
  // Users
  route('post', '/users', [ROLES.ADMIN], (req) => {
    const body = req.body as {
      username: string;
      password?: string;
      enabled?: boolean;
      roles?: { name: string }[];
    };
    const errors = [];
    if (!body.password)
      errors.push({
        message: "Field 'password' must not be null (rejected value: null)",
        field: 'password',
        rejectedValue: 'null',
        defaultMessage: 'must not be null',
      });
    if (!body.roles || body.roles.length === 0)
      errors.push({
        message: "Field 'roles' must not be empty (rejected value: null)",
        field: 'roles',
        rejectedValue: 'null',
        defaultMessage: 'must not be empty',
      });
    if (body.username.length > 20)
      errors.push({
        message: `Field 'username' size must be between 1 and 20 (rejected value: ${body.username})`,
        field: 'username',
        rejectedValue: body.username,
        defaultMessage: 'size must be between 1 and 20',
      });
    if (errors.length) throw invalid(errors);
    if (store.users.list((u) => u.username === body.username).length > 0)
      throw new ClinicProblem(409, 'DataIntegrityViolationException', `User ${body.username} already exists`);
    const roles = body.roles!.map((r) => (r.name.startsWith('ROLE_') ? r.name : `ROLE_${r.name}`));
    const enabled = body.enabled ?? true;
    store.users.insert({
      username: body.username,
      passwordHash: hashPassword(body.password!),
      enabled,
      roles,
    });
    return {
      status: 201,
      body: {
        username: body.username,
        password: body.password,
        enabled,
        roles: roles.map((name) => ({ name })),
      },
    };
  });

  app.use('/petclinic/api', api);
  app.use((req: Request, _res: Response, next: NextFunction) =>
    next(
      new ClinicProblem(
        404,
        'NoResourceFoundException',
        `No static resource ${req.path.replace(/^\/petclinic\//, '')}.`,
      ),
    ),
  );
  app.use((err: unknown, req: Request, res: Response, next: NextFunction) => {
    if (res.headersSent) {
      next(err);
      return;
    }
    if (err instanceof ClinicProblem) {
      sendClinicProblem(req, res, err.status, err.title, err.detail, err.errors);
      return;
    }
    const type = (err as { type?: string }).type;
    if (type === 'entity.parse.failed')
      sendClinicProblem(req, res, 400, 'HttpMessageNotReadableException', 'Malformed JSON request body');
    else if (type === 'entity.too.large')
      sendClinicProblem(req, res, 413, 'PayloadTooLargeException', 'Request body too large');
    else {
      deps.logger?.error({ err }, 'unexpected error');
      sendClinicProblem(
        req,
        res,
        500,
        'Exception',
        'An unexpected error occurred while processing your request',
      );
    }
  });
  return app;
}
