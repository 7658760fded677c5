// In-memory repositories. Node runs each request's synchronous section alone, so an id taken and
// a record stored in one call can never interleave with another request: unique ids, no lost updates.
// Each table is synchronous inside (the seed fills it before the app answers); the repositories
// around it have the asynchronous interface every store shares.
import { checkDate, checkLength, VARCHAR } from './limits.js';
import { seed } from './seed.js';
import type {
  ClinicStore,
  NamedRecord,
  OwnerRecord,
  OwnerRepository,
  PetRecord,
  Repository,
  UserRecord,
  VetRecord,
  VisitRecord,
} from './types.js';

export class MemoryTable<T extends { id: number }> {
  private readonly records = new Map<number, T>();
  /** Secondary indexes (field -> value -> ids) so nested views do not scan every record. */
  private readonly indexes = new Map<keyof T, Map<unknown, Set<number>>>();
  private nextId = 1;

  constructor(indexed: (keyof T)[] = []) {
    for (const field of indexed) this.indexes.set(field, new Map());
  }

  list(filter?: (record: T) => boolean): T[] {
    // A Map iterates in insertion order and ids only grow, so this is id order without sorting.
    const all = [...this.records.values()];
    return filter ? all.filter(filter) : all;
  }

  listBy<K extends keyof T>(field: K, value: T[K]): T[] {
    const index = this.indexes.get(field);
    if (!index) return this.list((r) => r[field] === value);
    const ids = index.get(value);
    if (!ids) return [];
    const found = [...ids].map((id) => this.records.get(id)!);
    return ids.size > 1 ? found.sort((a, b) => a.id - b.id) : found;
  }

  listIn<K extends keyof T>(field: K, values: readonly T[K][]): T[] {
    const wanted = new Set(values);
    if (field === 'id')
      return [...wanted].flatMap((id) => this.records.get(id as number) ?? []).sort((a, b) => a.id - b.id);
    if (!this.indexes.has(field)) return this.list((r) => wanted.has(r[field]));
    return [...wanted].flatMap((value) => this.listBy(field, value)).sort((a, b) => a.id - b.id);
  }

  get(id: number): T | undefined {
    return this.records.get(id);
  }

  insert(fields: Omit<T, 'id'>): T {
    const record = { ...fields, id: this.nextId++ } as T;
    this.records.set(record.id, record);
    this.index(record, true);
    return record;
  }

  update(id: number, fields: Omit<T, 'id'>): boolean {
    const old = this.records.get(id);
    if (!old) return false;
    const record = { ...fields, id } as T;
    this.index(old, false);
    this.records.set(id, record);
    this.index(record, true);
    return true;
  }

  delete(id: number): boolean {
    const old = this.records.get(id);
    if (!old) return false;
    this.index(old, false);
    return this.records.delete(id);
  }

  private index(record: T, add: boolean): void {
    for (const [field, index] of this.indexes) {
      const value = record[field];
      let ids = index.get(value);
      if (add) {
        if (!ids) index.set(value, (ids = new Set()));
        ids.add(record.id);
      } else if (ids) {
        ids.delete(record.id);
        if (ids.size === 0) index.delete(value);
      }
    }
  }
}

/** A table behind the shared interface: `check` enforces the column sizes, `cascade` runs before a delete. */
class MemoryRepository<T extends { id: number }> implements Repository<T> {
  constructor(
    readonly table: MemoryTable<T>,
    private readonly check: (fields: Omit<T, 'id'>) => void,
    private readonly cascade: (id: number) => void = () => {},
  ) {}

  async list(): Promise<T[]> {
    return this.table.list();
  }
  async listPage(range: { offset: number; limit: number }) {
    const all = this.table.list();
    return { records: all.slice(range.offset, range.offset + range.limit), total: all.length };
  }
  async listBy<K extends keyof T>(field: K, value: T[K]): Promise<T[]> {
    return this.table.listBy(field, value);
  }
  async listIn<K extends keyof T>(field: K, values: readonly T[K][]): Promise<T[]> {
    return this.table.listIn(field, values);
  }
  async get(id: number): Promise<T | undefined> {
    return this.table.get(id);
  }
  async insert(fields: Omit<T, 'id'>): Promise<T> {
    this.check(fields);
    return this.table.insert(fields);
  }
  async update(id: number, fields: Omit<T, 'id'>): Promise<boolean> {
    this.check(fields);
    return this.table.update(id, fields);
  }
  async delete(id: number): Promise<boolean> {
    if (!this.table.get(id)) return false;
    this.cascade(id);
    return this.table.delete(id);
  }
}

class MemoryOwners extends MemoryRepository<OwnerRecord> implements OwnerRepository {
  async findByLastName(prefix: string, range?: { offset: number; limit: number }) {
    const all = prefix ? this.table.list((o) => o.lastName.startsWith(prefix)) : this.table.list();
    const records = range ? all.slice(range.offset, range.offset + range.limit) : all;
    return { records, total: all.length };
  }
}

const named = (f: Omit<NamedRecord, 'id'>) => checkLength('name', f.name, VARCHAR.typeName);

export function createMemoryStore(options: { seeded?: boolean } = {}): ClinicStore {
  const owners = new MemoryTable<OwnerRecord>();
  const pets = new MemoryTable<PetRecord>(['ownerId', 'typeId']);
  const visits = new MemoryTable<VisitRecord>(['petId']);
  const petTypes = new MemoryTable<NamedRecord>();
  const specialties = new MemoryTable<NamedRecord>();
  const vets = new MemoryTable<VetRecord>();
  const users = new MemoryTable<UserRecord>(['username']);
  if (options.seeded) seed({ owners, pets, visits, petTypes, specialties, vets });

  // Upstream's cascades: an owner or a pet type takes its pets, a pet its visits, a specialty its links.
  const deletePet = (petId: number) => {
    for (const v of visits.listBy('petId', petId)) visits.delete(v.id);
    pets.delete(petId);
  };
  return {
    kind: 'memory',
    owners: new MemoryOwners(
      owners,
      (f) => {
        checkLength('firstName', f.firstName, VARCHAR.personName);
        checkLength('lastName', f.lastName, VARCHAR.personName);
        checkLength('address', f.address, VARCHAR.address);
        checkLength('city', f.city, VARCHAR.city);
        checkLength('telephone', f.telephone, VARCHAR.telephone);
      },
      (id) => pets.listBy('ownerId', id).forEach((p) => deletePet(p.id)),
    ),
    pets: new MemoryRepository(
      pets,
      (f) => {
        checkLength('name', f.name, VARCHAR.petName);
        checkDate('birthDate', f.birthDate);
      },
      (id) => visits.listBy('petId', id).forEach((v) => visits.delete(v.id)),
    ),
    visits: new MemoryRepository(visits, (f) => {
      checkLength('description', f.description, VARCHAR.description);
      checkDate('date', f.date);
    }),
    petTypes: new MemoryRepository(petTypes, named, (id) =>
      pets.listBy('typeId', id).forEach((p) => deletePet(p.id)),
    ),
    specialties: new MemoryRepository(specialties, named, (id) => {
      for (const vet of vets.list((v) => v.specialtyIds.includes(id)))
        vets.update(vet.id, { ...vet, specialtyIds: vet.specialtyIds.filter((s) => s !== id) });
    }),
    vets: new MemoryRepository(vets, (f) => {
      checkLength('firstName', f.firstName, VARCHAR.personName);
      checkLength('lastName', f.lastName, VARCHAR.personName);
    }),
    users: new MemoryRepository(users, (f) => {
      checkLength('username', f.username, VARCHAR.username);
      for (const role of f.roles) checkLength('role', role, VARCHAR.role);
    }),
    close: async () => {},
  };
}
