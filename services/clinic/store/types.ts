// The clinic's storage seam: plain records and a small repository per entity. The in-memory
// implementation is the default (as upstream's H2 profile); a database can implement the same.

export interface OwnerRecord {
  id: number;
  firstName: string;
  lastName: string;
  address: string;
  city: string;
  telephone: string;
}

export interface PetRecord {
  id: number;
  name: string;
  birthDate: string;
  typeId: number;
  ownerId: number;
}

export interface VisitRecord {
  id: number;
  petId: number;
  date: string;
  description: string;
}

export interface NamedRecord {
  id: number;
  name: string;
}

export interface VetRecord {
  id: number;
  firstName: string;
  lastName: string;
  specialtyIds: number[];
}

export interface UserRecord {
  id: number;
  username: string;
  passwordHash: string;
  enabled: boolean;
  roles: string[];
}

export interface Repository<T extends { id: number }> {
  list(filter?: (record: T) => boolean): T[];
  /** Records whose `field` equals `value`, in id order (indexed where the store declares it). */
  listBy<K extends keyof T>(field: K, value: T[K]): T[];
  get(id: number): T | undefined;
  /** Assigns the next id atomically and stores the record. */
  insert(fields: Omit<T, 'id'>): T;
  /** Replaces the fields of an existing record; false when the id is unknown. */
  update(id: number, fields: Omit<T, 'id'>): boolean;
  delete(id: number): boolean;
}

export interface ClinicStore {
  owners: Repository<OwnerRecord>;
  pets: Repository<PetRecord>;
  visits: Repository<VisitRecord>;
  petTypes: Repository<NamedRecord>;
  specialties: Repository<NamedRecord>;
  vets: Repository<VetRecord>;
  users: Repository<UserRecord>;
}
