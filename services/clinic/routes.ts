// The clinic's operations, one per (method, path) of the served document, with upstream's
// semantics: 201 + body + Location on create, 204 on update and delete, 404 for unknown ids and
// empty v1 lists, cascades on delete. Parameters and bodies arrive already validated (contract.ts).
import type { Request } from 'express';
import type { Args } from './contract.js';
import { ClinicProblem, invalid, notFound } from './problems.js';
import { ROLES } from './security.js';
import {
  StoreRejected,
  type ClinicStore,
  type NamedRecord,
  type OwnerRecord,
  type PetRecord,
  type VisitRecord,
} from './store/types.js';
import { createListGate } from './list-gate.js';
import { views } from './views.js';

export interface Answer {
  status: number;
  body?: unknown;
  location?: string;
}

export type Handler = (req: Request, args: Args) => Answer | Promise<Answer>;
export type Method = 'get' | 'post' | 'put' | 'delete';
export type Route = (method: Method, path: string, roles: string[], handler: Handler) => void;

const MAX_AGE_YEARS = 50;

/** The pet's age window: relative to today, so no JSON Schema can say it (the document describes it). */
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

const dataIntegrity = () =>
  new ClinicProblem(
    404,
    'DataIntegrityViolationException',
    'The requested resource could not be processed due to a data constraint violation',
  );

/** The rows of the page `args` asks for (page, size). */
const pageRange = (args: Args) => ({
  offset: (args.page as number) * (args.size as number),
  limit: args.size as number,
});

/** Upstream's page object; only the records on the page are turned into views (in one batch). */
async function page<T, V>(records: T[], total: number, args: Args, view: (items: T[]) => Promise<V[]>) {
  const size = args.size as number;
  return {
    content: await view(records),
    page: args.page as number,
    size,
    totalElements: total,
    totalPages: Math.ceil(total / size),
  };
}

/** A store's refusal as upstream answers it: a value the column cannot hold is the client's 400. */
function storeProblem(error: unknown): unknown {
  if (!(error instanceof StoreRejected)) return error;
  if (error.kind === 'value')
    return invalid([
      {
        message: `Field '${error.field}' ${error.message} (rejected value: ${error.rejectedValue})`,
        field: error.field,
        rejectedValue: error.rejectedValue,
        defaultMessage: error.message,
      },
    ]);
  if (error.kind === 'duplicate')
    return new ClinicProblem(409, 'DataIntegrityViolationException', error.message);
  return dataIntegrity();
}

/** Hashes a new user's password off the event loop, in the instance's derivation queue. */
export type HashPassword = (req: Request, password: string) => Promise<string>;

export function registerRoutes(
  storeRoute: Route,
  store: ClinicStore,
  hash: HashPassword,
  lists = createListGate(),
): void {
  const route: Route = (method, path, roles, handler) =>
    storeRoute(method, path, roles, async (req, args) => {
      try {
        return await handler(req, args);
      } catch (error) {
        throw storeProblem(error);
      }
    });
  const view = views(store);
  const O = [ROLES.OWNER_ADMIN];
  const V = [ROLES.VET_ADMIN];
  const id = (args: Args, name: string) => args[name] as number;
  /** A v1 list: 404 when empty (as upstream), else every record's view, built in one batch. */
  const nonEmpty = async <T, W>(records: T[], what: string, show: (r: T[]) => W[] | Promise<W[]>) => {
    if (records.length === 0) throw notFound(what);
    return { status: 200, body: await show(records) };
  };
  /** An unpaged list, read and built inside the list gate (a bound on what lists hold at once). */
  const wholeList = (build: () => Promise<Answer>) => lists.run(build);
  const each =
    <T, W>(show: (r: T) => W) =>
    (records: T[]) =>
      records.map(show);
  const need = <T>(record: T | undefined, what: string): T => {
    if (record === undefined) throw notFound(what);
    return record;
  };
  const ownerFields = (b: OwnerRecord): Omit<OwnerRecord, 'id'> => ({
    firstName: b.firstName,
    lastName: b.lastName,
    address: b.address,
    city: b.city,
    telephone: b.telephone,
  });
  /** The pet's fields and its type's record (read before the write, for the create's answer). */
  const petFields = async (
    b: { name: string; birthDate: string; type: { id: number } },
    ownerId: number,
  ): Promise<{ fields: Omit<PetRecord, 'id'>; petType: NamedRecord }> => {
    checkBirthDate(b.birthDate);
    const petType = await store.petTypes.get(b.type.id);
    if (!petType) throw dataIntegrity();
    return { fields: { name: b.name, birthDate: b.birthDate, typeId: b.type.id, ownerId }, petType };
  };
  const lastName = (args: Args) => (args.lastName as string | undefined) ?? '';
  const visitFields = async (
    b: { date?: string; description: string },
    petId: number,
  ): Promise<Omit<VisitRecord, 'id'>> => {
    if (!(await store.pets.get(petId))) throw dataIntegrity();
    return { petId, date: b.date ?? new Date().toISOString().slice(0, 10), description: b.description };
  };
  // One query for all the names (listIn, ordered by id): each name's first specialty, as listBy()[0].
  const specialtiesByName = async (list: { name: string }[]) => {
    const found = await store.specialties.listIn(
      'name',
      list.map((s) => s.name),
    );
    const byName = new Map<string, NamedRecord>();
    for (const s of found) if (!byName.has(s.name)) byName.set(s.name, s);
    return list.flatMap((s) => byName.get(s.name) ?? []);
  };
  const specialtyIdsByName = async (list: { name: string }[]) =>
    (await specialtiesByName(list)).map((s) => s.id);
  const owner = async (args: Args) => need(await store.owners.get(id(args, 'ownerId')), 'owner');

  route('get', '/oops', [], () => {
    throw new ClinicProblem(
      500,
      'RuntimeException',
      'Expected: controller used to showcase what happens when an exception is thrown',
    );
  });
  // Owners
  route('get', '/owners', O, (_req, args) =>
    wholeList(async () =>
      nonEmpty((await store.owners.findByLastName(lastName(args))).records, 'owners', view.owners),
    ),
  );
  route('post', '/owners', O, async (req) => {
    const created = await store.owners.insert(ownerFields(req.body));
    return { status: 201, body: view.created.owner(created), location: `/api/owners/${created.id}` };
  });
  route('get', '/owners/:ownerId', O, async (_req, args) => ({
    status: 200,
    body: await view.owner(await owner(args)),
  }));
  route('put', '/owners/:ownerId', O, async (req, args) => {
    if (!(await store.owners.update(id(args, 'ownerId'), ownerFields(req.body)))) throw notFound('owner');
    return { status: 204 };
  });
  route('delete', '/owners/:ownerId', O, async (_req, args) => {
    if (!(await store.owners.delete(id(args, 'ownerId')))) throw notFound('owner');
    return { status: 204 };
  });
  route('get', '/owners/:ownerId/pets', O, async (_req, args) => {
    const found = await owner(args);
    return { status: 200, body: await view.petsOf(found.id) };
  });
  route('post', '/owners/:ownerId/pets', O, async (req, args) => {
    const found = await owner(args);
    const { fields, petType } = await petFields(req.body, found.id);
    const pet = await store.pets.insert(fields);
    return { status: 201, body: view.created.pet(pet, petType), location: `/api/pets/${pet.id}` };
  });
  // Unlike upstream spring-petclinic-rest (its issue #310), the pet must belong to the owner in the path.
  const ownersPet = async (args: Args) => {
    const found = await owner(args);
    const pet = await store.pets.get(id(args, 'petId'));
    if (!pet || pet.ownerId !== found.id) throw notFound('pet');
    return pet;
  };
  route('get', '/owners/:ownerId/pets/:petId', O, async (_req, args) => ({
    status: 200,
    body: await view.pet(await ownersPet(args)),
  }));
  route('put', '/owners/:ownerId/pets/:petId', O, async (req, args) => {
    const pet = await ownersPet(args);
    if (!(await store.pets.update(pet.id, (await petFields(req.body, pet.ownerId)).fields)))
      throw notFound('pet');
    return { status: 204 };
  });
  route('post', '/owners/:ownerId/pets/:petId/visits', O, async (req, args) => {
    const pet = await ownersPet(args);
    const visit = await store.visits.insert(await visitFields(req.body, pet.id));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/v2/owners', O, async (_req, args) => {
    const { records, total } = await store.owners.findByLastName(lastName(args), pageRange(args));
    return { status: 200, body: await page(records, total, args, view.owners) };
  });
  // Pets
  route('get', '/pets', O, () => wholeList(async () => nonEmpty(await store.pets.list(), 'pets', view.pets)));
  route('get', '/v2/pets', O, async (_req, args) => {
    const { records, total } = await store.pets.listPage(pageRange(args));
    return { status: 200, body: await page(records, total, args, view.pets) };
  });
  route('get', '/pets/:petId', O, async (_req, args) => ({
    status: 200,
    body: await view.pet(need(await store.pets.get(id(args, 'petId')), 'pet')),
  }));
  route('put', '/pets/:petId', O, async (req, args) => {
    const pet = need(await store.pets.get(id(args, 'petId')), 'pet');
    if (!(await store.pets.update(pet.id, (await petFields(req.body, pet.ownerId)).fields)))
      throw notFound('pet');
    return { status: 204 };
  });
  route('delete', '/pets/:petId', O, async (_req, args) => {
    if (!(await store.pets.delete(id(args, 'petId')))) throw notFound('pet');
    return { status: 204 };
  });
  // Visits
  route('get', '/visits', O, () =>
    wholeList(async () => nonEmpty(await store.visits.list(), 'visits', each(view.visit))),
  );
  route('post', '/visits', O, async (req) => {
    const visit = await store.visits.insert(await visitFields(req.body, req.body.petId));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/visits/:visitId', O, async (_req, args) => ({
    status: 200,
    body: view.visit(need(await store.visits.get(id(args, 'visitId')), 'visit')),
  }));
  route('put', '/visits/:visitId', O, async (req, args) => {
    const visit = need(await store.visits.get(id(args, 'visitId')), 'visit');
    const fields = {
      petId: visit.petId,
      date: req.body.date ?? visit.date,
      description: req.body.description,
    };
    if (!(await store.visits.update(visit.id, fields))) throw notFound('visit');
    return { status: 204 };
  });
  route('delete', '/visits/:visitId', O, async (_req, args) => {
    if (!(await store.visits.delete(id(args, 'visitId')))) throw notFound('visit');
    return { status: 204 };
  });
  // Pet types: reading needs OWNER_ADMIN or VET_ADMIN, changing needs VET_ADMIN.
  route('get', '/pettypes', [...O, ...V], async () =>
    nonEmpty(
      await store.petTypes.list(),
      'pet types',
      each((t) => ({ name: t.name, id: t.id })),
    ),
  );
  route('get', '/pettypes/:petTypeId', [...O, ...V], async (_req, args) => {
    const t = need(await store.petTypes.get(id(args, 'petTypeId')), 'pet type');
    return { status: 200, body: { name: t.name, id: t.id } };
  });
  route('post', '/pettypes', V, async (req) => {
    const t = await store.petTypes.insert({ name: req.body.name });
    return { status: 201, body: { name: t.name, id: t.id }, location: `/api/pettypes/${t.id}` };
  });
  route('put', '/pettypes/:petTypeId', V, async (req, args) => {
    if (!(await store.petTypes.update(id(args, 'petTypeId'), { name: req.body.name })))
      throw notFound('pet type');
    return { status: 204 };
  });
  route('delete', '/pettypes/:petTypeId', V, async (_req, args) => {
    if (!(await store.petTypes.delete(id(args, 'petTypeId')))) throw notFound('pet type');
    return { status: 204 };
  });
  // Specialties
  route('get', '/specialties', V, async () =>
    nonEmpty(await store.specialties.list(), 'specialties', each(view.specialty)),
  );
  route('post', '/specialties', V, async (req) => {
    const s = await store.specialties.insert({ name: req.body.name });
    return { status: 201, body: view.specialty(s), location: `/api/specialties/${s.id}` };
  });
  route('get', '/specialties/:specialtyId', V, async (_req, args) => ({
    status: 200,
    body: view.specialty(need(await store.specialties.get(id(args, 'specialtyId')), 'specialty')),
  }));
  route('put', '/specialties/:specialtyId', V, async (req, args) => {
    if (!(await store.specialties.update(id(args, 'specialtyId'), { name: req.body.name })))
      throw notFound('specialty');
    return { status: 204 };
  });
  route('delete', '/specialties/:specialtyId', V, async (_req, args) => {
    if (!(await store.specialties.delete(id(args, 'specialtyId')))) throw notFound('specialty');
    return { status: 204 };
  });
  // Vets: specialties are resolved by name; unknown names are dropped, as upstream does.
  route('get', '/vets', V, () => wholeList(async () => nonEmpty(await store.vets.list(), 'vets', view.vets)));
  route('post', '/vets', V, async (req) => {
    const specialties = await specialtiesByName(req.body.specialties);
    const vet = await store.vets.insert({
      firstName: req.body.firstName,
      lastName: req.body.lastName,
      specialtyIds: specialties.map((s) => s.id),
    });
    return { status: 201, body: view.created.vet(vet, specialties), location: `/api/vets/${vet.id}` };
  });
  route('get', '/vets/:vetId', V, async (_req, args) => ({
    status: 200,
    body: await view.vet(need(await store.vets.get(id(args, 'vetId')), 'vet')),
  }));
  route('put', '/vets/:vetId', V, async (req, args) => {
    const fields = {
      firstName: req.body.firstName,
      lastName: req.body.lastName,
      specialtyIds: await specialtyIdsByName(req.body.specialties),
    };
    if (!(await store.vets.update(id(args, 'vetId'), fields))) throw notFound('vet');
    return { status: 204 };
  });
  route('delete', '/vets/:vetId', V, async (_req, args) => {
    if (!(await store.vets.delete(id(args, 'vetId')))) throw notFound('vet');
    return { status: 204 };
  });
  // Users: the document requires username (<= 20), password and at least one role. Role names get
  // upstream's ROLE_ prefix; the password is echoed as upstream does, but only its hash is kept.
  route('post', '/users', [ROLES.ADMIN], async (req) => {
    const body = req.body as {
      username: string;
      password: string;
      enabled?: boolean;
      roles: { name: string }[];
    };
    if ((await store.users.listBy('username', body.username)).length > 0)
      throw new ClinicProblem(409, 'DataIntegrityViolationException', `User ${body.username} already exists`);
    const roles = body.roles.map((r) => (r.name.startsWith('ROLE_') ? r.name : `ROLE_${r.name}`));
    const enabled = body.enabled ?? true;
    await store.users.insert({
      username: body.username,
      passwordHash: await hash(req, body.password),
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
}
