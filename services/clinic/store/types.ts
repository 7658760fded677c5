// The clinic's storage seam: plain records and a small repository per entity. The in-memory
// implementation is the default (as upstream's H2 profile); postgres.ts keeps the same in PostgreSQL.
// Every method is asynchronous so both stores sit behind the same routes.

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
  /** Every record in id order. */
  list(): Promise<T[]>;
  /** One page of the records in id order, with the count of all of them (the store pages, not the caller). */
  listPage(range: { offset: number; limit: number }): Promise<{ records: T[]; total: number }>;
  /** Records whose `field` equals `value`, in id order (indexed where the store declares it). */
  listBy<K extends keyof T>(field: K, value: T[K]): Promise<T[]>;
  /** Records whose `field` is one of `values`, in id order: one query for the rows of many views. */
  listIn<K extends keyof T>(field: K, values: readonly T[K][]): Promise<T[]>;
  get(id: number): Promise<T | undefined>;
  /** Assigns the next id atomically and stores the record (with its links, in one transaction). */
  insert(fields: Omit<T, 'id'>): Promise<T>;
  /** Replaces the fields of an existing record; false when the id is unknown. */
  update(id: number, fields: Omit<T, 'id'>): Promise<boolean>;
  /** Deletes the record and what depends on it, as upstream's cascades; false when the id is unknown. */
  delete(id: number): Promise<boolean>;
}

export interface OwnerRepository extends Repository<OwnerRecord> {
  /** Owners whose last name starts with `prefix` (case-sensitive, as upstream's LIKE on H2), in id order. */
  findByLastName(
    prefix: string,
    range?: { offset: number; limit: number },
  ): Promise<{ records: OwnerRecord[]; total: number }>;
}

/** The pool a database store holds, for the clinic's /metrics. */
export interface PoolStats {
  total: number;
  idle: number;
  waiting: number;
}

export interface ClinicStore {
  owners: OwnerRepository;
  pets: Repository<PetRecord>;
  visits: Repository<VisitRecord>;
  petTypes: Repository<NamedRecord>;
  specialties: Repository<NamedRecord>;
  vets: Repository<VetRecord>;
  users: Repository<UserRecord>;
  /** Which store this is (memory or postgres), for logs and tests. */
  kind: string;
  /** Waits for the writes in flight and releases connections. */
  close(): Promise<void>;
  poolStats?(): PoolStats;
  /** Resolves when the database answers a trivial query in time (health); StoreUnavailable otherwise. */
  ping?(): Promise<void>;
}

/**
 * A value the store cannot hold or a reference it cannot follow: `value` (too long, out of range)
 * answers 400, `reference` (a row that is gone) and `duplicate` (a unique key taken) answer as upstream.
 */
export class StoreRejected extends Error {
  constructor(
    readonly kind: 'value' | 'reference' | 'duplicate',
    message: string,
    readonly field = '',
    readonly rejectedValue = '',
  ) {
    super(message);
  }
}

/**
 * The database cannot answer now (down, restarting, a statement or lock past its timeout, no pool
 * connection in time): the request may succeed later, so it answers 503 with Retry-After, never 500,
 * and a login that meets it is not "Bad credentials".
 */
export class StoreUnavailable extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
