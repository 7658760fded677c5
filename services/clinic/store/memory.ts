// In-memory repositories. Node runs each request's synchronous section alone, so an id taken and
// a record stored in one call can never interleave with another request: unique ids, no lost updates.
import type { ClinicStore, Repository } from './types.js';

export class MemoryRepository<T extends { id: number }> implements Repository<T> {
  private readonly records = new Map<number, T>();
  private nextId = 1;

  list(filter?: (record: T) => boolean): T[] {
    // A Map iterates in insertion order and ids only grow, so this is id order without sorting.
    const all = [...this.records.values()];
    return filter ? all.filter(filter) : all;
  }

  get(id: number): T | undefined {
    return this.records.get(id);
  }

  insert(fields: Omit<T, 'id'>): T {
    const record = { ...fields, id: this.nextId++ } as T;
    this.records.set(record.id, record);
    return record;
  }

  update(id: number, fields: Omit<T, 'id'>): boolean {
    if (!this.records.has(id)) return false;
    this.records.set(id, { ...fields, id } as T);
    return true;
  }

  delete(id: number): boolean {
    return this.records.delete(id);
  }
}

export function createMemoryStore(): ClinicStore {
  return {
    owners: new MemoryRepository(),
    pets: new MemoryRepository(),
    visits: new MemoryRepository(),
    petTypes: new MemoryRepository(),
    specialties: new MemoryRepository(),
    vets: new MemoryRepository(),
    users: new MemoryRepository(),
  };
}
