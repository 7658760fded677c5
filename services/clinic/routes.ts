// The clinic's operations, one per (method, path) of the served document, with upstream's
// semantics: 201 + body + Location on create, 204 on update and delete, 404 for unknown ids and
// empty v1 lists, cascades on delete. Parameters and bodies arrive already validated (contract.ts).
import type { Request } from 'express';
import type { Args } from './contract.js';
import { ClinicProblem, invalid, notFound } from './problems.js';
import { hashPassword, ROLES } from './security.js';
import type { ClinicStore, OwnerRecord, PetRecord, VisitRecord } from './store/types.js';
import { views } from './views.js';

export interface Answer {
  status: number;
  body?: unknown;
  location?: string;
}

export type Handler = (req: Request, args: Args) => Answer;
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

/** Upstream's page object; only the records on the page are turned into views. */
function page<T, V>(items: T[], args: Args, view: (item: T) => V) {
  const pageIndex = args.page as number;
  const size = args.size as number;
  return {
    content: items.slice(pageIndex * size, pageIndex * size + size).map(view),
    page: pageIndex,
    size,
    totalElements: items.length,
    totalPages: Math.ceil(items.length / size),
  };
}

export function registerRoutes(route: Route, store: ClinicStore): void {
  const view = views(store);
  const O = [ROLES.OWNER_ADMIN];
  const V = [ROLES.VET_ADMIN];
  const id = (args: Args, name: string) => args[name] as number;
  const nonEmpty = <T>(items: T[], what: string): Answer => {
    if (items.length === 0) throw notFound(what);
    return { status: 200, body: items };
  };
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
  const petFields = (
    b: { name: string; birthDate: string; type: { id: number } },
    ownerId: number,
  ): Omit<PetRecord, 'id'> => {
    checkBirthDate(b.birthDate);
    if (!store.petTypes.get(b.type.id)) throw dataIntegrity();
    return { name: b.name, birthDate: b.birthDate, typeId: b.type.id, ownerId };
  };
  // Prefix match, case-sensitive, as upstream's `LIKE :lastName%` on H2.
  const ownersByLastName = (args: Args) => {
    const prefix = (args.lastName as string | undefined) ?? '';
    return prefix ? store.owners.list((o) => o.lastName.startsWith(prefix)) : store.owners.list();
  };
  const visitFields = (b: { date?: string; description: string }, petId: number): Omit<VisitRecord, 'id'> => {
    if (!store.pets.get(petId)) throw dataIntegrity();
    return { petId, date: b.date ?? new Date().toISOString().slice(0, 10), description: b.description };
  };
  const specialtyIdsByName = (list: { name: string }[]) =>
    list
      .map((s) => store.specialties.list((x) => x.name === s.name)[0]?.id)
      .filter((sid): sid is number => sid !== undefined);
  const deletePetCascade = (petId: number) => {
    for (const v of store.visits.listBy('petId', petId)) store.visits.delete(v.id);
    store.pets.delete(petId);
  };

  route('get', '/oops', [], () => {
    throw new ClinicProblem(
      500,
      'RuntimeException',
      'Expected: controller used to showcase what happens when an exception is thrown',
    );
  });
  // Owners
  route('get', '/owners', O, (_req, args) => nonEmpty(ownersByLastName(args).map(view.owner), 'owners'));
  route('post', '/owners', O, (req) => {
    const owner = store.owners.insert(ownerFields(req.body));
    return { status: 201, body: view.owner(owner), location: `/api/owners/${owner.id}` };
  });
  route('get', '/owners/:ownerId', O, (_req, args) => ({
    status: 200,
    body: view.owner(need(store.owners.get(id(args, 'ownerId')), 'owner')),
  }));
  route('put', '/owners/:ownerId', O, (req, args) => {
    if (!store.owners.update(id(args, 'ownerId'), ownerFields(req.body))) throw notFound('owner');
    return { status: 204 };
  });
  route('delete', '/owners/:ownerId', O, (_req, args) => {
    const ownerId = id(args, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    for (const pet of store.pets.listBy('ownerId', ownerId)) deletePetCascade(pet.id);
    store.owners.delete(ownerId);
    return { status: 204 };
  });
  route('get', '/owners/:ownerId/pets', O, (_req, args) => {
    const ownerId = id(args, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    return { status: 200, body: view.petsOf(ownerId) };
  });
  route('post', '/owners/:ownerId/pets', O, (req, args) => {
    const ownerId = id(args, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    const pet = store.pets.insert(petFields(req.body, ownerId));
    return { status: 201, body: view.pet(pet), location: `/api/pets/${pet.id}` };
  });
  // Unlike upstream (issue #310), the pet must belong to the owner in the path.
  const ownersPet = (args: Args) => {
    const ownerId = id(args, 'ownerId');
    need(store.owners.get(ownerId), 'owner');
    const pet = store.pets.get(id(args, 'petId'));
    if (!pet || pet.ownerId !== ownerId) throw notFound('pet');
    return pet;
  };
  route('get', '/owners/:ownerId/pets/:petId', O, (_req, args) => ({
    status: 200,
    body: view.pet(ownersPet(args)),
  }));
  route('put', '/owners/:ownerId/pets/:petId', O, (req, args) => {
    const pet = ownersPet(args);
    store.pets.update(pet.id, petFields(req.body, pet.ownerId));
    return { status: 204 };
  });
  route('post', '/owners/:ownerId/pets/:petId/visits', O, (req, args) => {
    const pet = ownersPet(args);
    const visit = store.visits.insert(visitFields(req.body, pet.id));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/v2/owners', O, (_req, args) => ({
    status: 200,
    body: page(ownersByLastName(args), args, view.owner),
  }));
  // Pets
  route('get', '/pets', O, () => nonEmpty(store.pets.list().map(view.pet), 'pets'));
  route('get', '/v2/pets', O, (_req, args) => ({
    status: 200,
    body: page(store.pets.list(), args, view.pet),
  }));
  route('get', '/pets/:petId', O, (_req, args) => ({
    status: 200,
    body: view.pet(need(store.pets.get(id(args, 'petId')), 'pet')),
  }));
  route('put', '/pets/:petId', O, (req, args) => {
    const pet = need(store.pets.get(id(args, 'petId')), 'pet');
    store.pets.update(pet.id, petFields(req.body, pet.ownerId));
    return { status: 204 };
  });
  route('delete', '/pets/:petId', O, (_req, args) => {
    const petId = id(args, 'petId');
    need(store.pets.get(petId), 'pet');
    deletePetCascade(petId);
    return { status: 204 };
  });
  // Visits
  route('get', '/visits', O, () => nonEmpty(store.visits.list().map(view.visit), 'visits'));
  route('post', '/visits', O, (req) => {
    const visit = store.visits.insert(visitFields(req.body, req.body.petId));
    return { status: 201, body: view.visit(visit), location: `/api/visits/${visit.id}` };
  });
  route('get', '/visits/:visitId', O, (_req, args) => ({
    status: 200,
    body: view.visit(need(store.visits.get(id(args, 'visitId')), 'visit')),
  }));
  route('put', '/visits/:visitId', O, (req, args) => {
    const visit = need(store.visits.get(id(args, 'visitId')), 'visit');
    store.visits.update(visit.id, {
      petId: visit.petId,
      date: req.body.date ?? visit.date,
      description: req.body.description,
    });
    return { status: 204 };
  });
  route('delete', '/visits/:visitId', O, (_req, args) => {
    if (!store.visits.delete(id(args, 'visitId'))) throw notFound('visit');
    return { status: 204 };
  });
  // Pet types: reading needs OWNER_ADMIN or VET_ADMIN, changing needs VET_ADMIN.
  route('get', '/pettypes', [...O, ...V], () =>
    nonEmpty(
      store.petTypes.list().map((t) => view.type(t.id)),
      'pet types',
    ),
  );
  route('get', '/pettypes/:petTypeId', [...O, ...V], (_req, args) => ({
    status: 200,
    body: view.type(need(store.petTypes.get(id(args, 'petTypeId')), 'pet type').id),
  }));
  route('post', '/pettypes', V, (req) => {
    const t = store.petTypes.insert({ name: req.body.name });
    return { status: 201, body: view.type(t.id), location: `/api/pettypes/${t.id}` };
  });
  route('put', '/pettypes/:petTypeId', V, (req, args) => {
    if (!store.petTypes.update(id(args, 'petTypeId'), { name: req.body.name })) throw notFound('pet type');
    return { status: 204 };
  });
  route('delete', '/pettypes/:petTypeId', V, (_req, args) => {
    const typeId = id(args, 'petTypeId');
    need(store.petTypes.get(typeId), 'pet type');
    for (const pet of store.pets.listBy('typeId', typeId)) deletePetCascade(pet.id);
    store.petTypes.delete(typeId);
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
  route('get', '/specialties/:specialtyId', V, (_req, args) => ({
    status: 200,
    body: view.specialty(need(store.specialties.get(id(args, 'specialtyId')), 'specialty')),
  }));
  route('put', '/specialties/:specialtyId', V, (req, args) => {
    if (!store.specialties.update(id(args, 'specialtyId'), { name: req.body.name }))
      throw notFound('specialty');
    return { status: 204 };
  });
  route('delete', '/specialties/:specialtyId', V, (_req, args) => {
    const specialtyId = id(args, 'specialtyId');
    if (!store.specialties.delete(specialtyId)) throw notFound('specialty');
    for (const vet of store.vets.list((v) => v.specialtyIds.includes(specialtyId))) {
      store.vets.update(vet.id, { ...vet, specialtyIds: vet.specialtyIds.filter((s) => s !== specialtyId) });
    }
    return { status: 204 };
  });
  // Vets: specialties are resolved by name; unknown names are dropped, as upstream does.
  route('get', '/vets', V, () => nonEmpty(store.vets.list().map(view.vet), 'vets'));
  route('post', '/vets', V, (req) => {
    const vet = store.vets.insert({
      firstName: req.body.firstName,
      lastName: req.body.lastName,
      specialtyIds: specialtyIdsByName(req.body.specialties),
    });
    return { status: 201, body: view.vet(vet), location: `/api/vets/${vet.id}` };
  });
  route('get', '/vets/:vetId', V, (_req, args) => ({
    status: 200,
    body: view.vet(need(store.vets.get(id(args, 'vetId')), 'vet')),
  }));
  route('put', '/vets/:vetId', V, (req, args) => {
    const fields = {
      firstName: req.body.firstName,
      lastName: req.body.lastName,
      specialtyIds: specialtyIdsByName(req.body.specialties),
    };
    if (!store.vets.update(id(args, 'vetId'), fields)) throw notFound('vet');
    return { status: 204 };
  });
  route('delete', '/vets/:vetId', V, (_req, args) => {
    if (!store.vets.delete(id(args, 'vetId'))) throw notFound('vet');
    return { status: 204 };
  });
  // Users: the document requires username (<= 20), password and at least one role. Role names get
  // upstream's ROLE_ prefix; the password is echoed as upstream does, but only its hash is kept.
  route('post', '/users', [ROLES.ADMIN], (req) => {
    const body = req.body as {
      username: string;
      password: string;
      enabled?: boolean;
      roles: { name: string }[];
    };
    if (store.users.listBy('username', body.username).length > 0)
      throw new ClinicProblem(409, 'DataIntegrityViolationException', `User ${body.username} already exists`);
    const roles = body.roles.map((r) => (r.name.startsWith('ROLE_') ? r.name : `ROLE_${r.name}`));
    const enabled = body.enabled ?? true;
    store.users.insert({
      username: body.username,
      passwordHash: hashPassword(body.password),
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
