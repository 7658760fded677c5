// In-memory repositories. Node runs each request's synchronous section alone, so an id taken and
// a record stored in one call can never interleave with another request: unique ids, no lost updates.
import type { ClinicStore, Repository } from './types.js';

export class MemoryRepository<T extends { id: number }> implements Repository<T> {
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

export function createMemoryStore(): ClinicStore {
  return {
    owners: new MemoryRepository(),
    pets: new MemoryRepository(['ownerId', 'typeId']),
    visits: new MemoryRepository(['petId']),
    petTypes: new MemoryRepository(),
    specialties: new MemoryRepository(),
    vets: new MemoryRepository(),
    users: new MemoryRepository(['username']),
  };
}
