// Response shapes with upstream's field names and order: an owner's pets sorted by name
// (case-insensitive), a pet's visits newest first, a vet's specialties sorted by name.
// Lists are built in batches: the records of a list take one query per related table
// (pets of all owners, visits of all those pets, their types), never one per record, so a
// database store answers a list of any length in a fixed number of queries.
import type {
  ClinicStore,
  NamedRecord,
  OwnerRecord,
  PetRecord,
  VetRecord,
  VisitRecord,
} from './store/types.js';

// Case-insensitive by code unit, as Java's String.CASE_INSENSITIVE_ORDER (and cheaper than localeCompare).
const byName = (a: { name: string }, b: { name: string }) => {
  const x = a.name.toLowerCase();
  const y = b.name.toLowerCase();
  return x < y ? -1 : x > y ? 1 : 0;
};

/** `records` grouped by `key`, each group keeping the records' order. */
function groupBy<T, K>(records: T[], key: (record: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const record of records) {
    const group = groups.get(key(record));
    if (group) group.push(record);
    else groups.set(key(record), [record]);
  }
  return groups;
}

const unique = <T>(values: T[]) => [...new Set(values)];

export function views(store: ClinicStore) {
  const named = (t: NamedRecord) => ({ name: t.name, id: t.id });
  const visit = (v: VisitRecord) => ({ date: v.date, description: v.description, id: v.id, petId: v.petId });
  /** Pets with their types and visits: two queries whatever the count. */
  const pets = async (records: PetRecord[]) => {
    if (records.length === 0) return [];
    const [types, visits] = await Promise.all([
      store.petTypes.listIn('id', unique(records.map((p) => p.typeId))),
      store.visits.listIn(
        'petId',
        records.map((p) => p.id),
      ),
    ]);
    const typeById = new Map(types.map((t) => [t.id, t]));
    const visitsByPet = groupBy(visits, (v) => v.petId);
    return records.map((p) => petShape(p, typeById.get(p.typeId), visitsByPet.get(p.id) ?? []));
  };
  const petShape = (p: PetRecord, petType: NamedRecord | undefined, visits: VisitRecord[]) => ({
    name: p.name,
    birthDate: p.birthDate,
    type: petType ? named(petType) : null,
    id: p.id,
    ownerId: p.ownerId,
    visits: visits.sort((a, b) => b.date.localeCompare(a.date)).map(visit),
  });
  const pet = async (p: PetRecord) => (await pets([p]))[0]!;
  const petsOf = async (ownerId: number) => pets((await store.pets.listBy('ownerId', ownerId)).sort(byName));
  /** Owners with their pets: three queries whatever the count. */
  const owners = async (records: OwnerRecord[]) => {
    if (records.length === 0) return [];
    const all = await pets(
      (
        await store.pets.listIn(
          'ownerId',
          records.map((o) => o.id),
        )
      ).sort(byName),
    );
    const petsByOwner = groupBy(all, (p) => p.ownerId);
    return records.map((o) => ownerShape(o, petsByOwner.get(o.id) ?? []));
  };
  const ownerShape = <P>(o: OwnerRecord, ownerPets: P[]) => ({
    firstName: o.firstName,
    lastName: o.lastName,
    address: o.address,
    city: o.city,
    telephone: o.telephone,
    id: o.id,
    pets: ownerPets,
  });
  const owner = async (o: OwnerRecord) => (await owners([o]))[0]!;
  const specialty = (s: NamedRecord) => ({ id: s.id, name: s.name });
  /** Vets with their specialties: one query whatever the count. */
  const vets = async (records: VetRecord[]) => {
    const ids = unique(records.flatMap((v) => v.specialtyIds));
    const byId = new Map((ids.length ? await store.specialties.listIn('id', ids) : []).map((s) => [s.id, s]));
    return records.map((v) =>
      vetShape(
        v,
        v.specialtyIds.flatMap((id) => byId.get(id) ?? []),
      ),
    );
  };
  const vetShape = (v: VetRecord, specialties: NamedRecord[]) => ({
    firstName: v.firstName,
    lastName: v.lastName,
    specialties: specialties.sort(byName).map(specialty),
    id: v.id,
  });
  const vet = async (v: VetRecord) => (await vets([v]))[0]!;
  // A record just created, shown from what the write and the reads before it gave: no read after
  // the commit, so a failing read can never turn a stored create into an error (and a retry into
  // a duplicate). A new owner has no pets, a new pet no visits.
  const created = {
    owner: (o: OwnerRecord) => ownerShape(o, []),
    pet: (p: PetRecord, petType: NamedRecord) => petShape(p, petType, []),
    vet: (v: VetRecord, specialties: NamedRecord[]) => vetShape(v, [...specialties]),
  };
  return { visit, pet, pets, petsOf, owner, owners, specialty, vet, vets, created };
}
