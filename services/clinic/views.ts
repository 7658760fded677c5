// Response shapes with upstream's field names and order: an owner's pets sorted by name
// (case-insensitive), a pet's visits newest first, a vet's specialties sorted by name.
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

export function views(store: ClinicStore) {
  const type = async (id: number) => {
    const t = await store.petTypes.get(id);
    return t ? { name: t.name, id: t.id } : null;
  };
  const visit = (v: VisitRecord) => ({ date: v.date, description: v.description, id: v.id, petId: v.petId });
  const pet = async (p: PetRecord) => {
    const [petType, visits] = await Promise.all([type(p.typeId), store.visits.listBy('petId', p.id)]);
    return {
      name: p.name,
      birthDate: p.birthDate,
      type: petType,
      id: p.id,
      ownerId: p.ownerId,
      visits: visits.sort((a, b) => b.date.localeCompare(a.date)).map(visit),
    };
  };
  const petsOf = async (ownerId: number) =>
    Promise.all((await store.pets.listBy('ownerId', ownerId)).sort(byName).map(pet));
  const owner = async (o: OwnerRecord) => ({
    firstName: o.firstName,
    lastName: o.lastName,
    address: o.address,
    city: o.city,
    telephone: o.telephone,
    id: o.id,
    pets: await petsOf(o.id),
  });
  const specialty = (s: NamedRecord) => ({ id: s.id, name: s.name });
  const vet = async (v: VetRecord) => ({
    firstName: v.firstName,
    lastName: v.lastName,
    specialties: (await Promise.all(v.specialtyIds.map((id) => store.specialties.get(id))))
      .filter((s): s is NamedRecord => s !== undefined)
      .sort(byName)
      .map(specialty),
    id: v.id,
  });
  return { type, visit, pet, petsOf, owner, specialty, vet };
}
