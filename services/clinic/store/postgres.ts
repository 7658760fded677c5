// The clinic's store in PostgreSQL (the `pg` driver): one pool per instance, every statement
// parameterised, each instance in its own schema (search_path set per connection), one transaction
// for a write that touches several rows (a vet and its specialties, a user and its roles). Deletes
// cascade in the database (ON DELETE CASCADE), so a delete is one statement.
import pg from 'pg';
import { migrate } from './migrate.js';
import { asUnavailable } from './unavailable.js';
import {
  StoreRejected,
  StoreUnavailable,
  type ClinicStore,
  type NamedRecord,
  type OwnerRecord,
  type OwnerRepository,
  type PetRecord,
  type Repository,
  type UserRecord,
  type VetRecord,
  type VisitRecord,
} from './types.js';

/** A record field kept in a column (`read` is the SQL that gives it back in the record's form). */
interface Column {
  field: string;
  column: string;
  read?: string;
}
/** A list field kept as rows of a link table (vet -> specialties, user -> roles). */
interface Link {
  field: string;
  table: string;
  key: string;
  column: string;
  type: string;
}
interface TableSpec {
  table: string;
  columns: Column[];
  link?: Link;
}

/** A driver error as the store's own: values a column cannot hold, references and keys. */
function rejected(error: unknown): unknown {
  const unavailable = asUnavailable(error);
  if (unavailable !== error) return unavailable;
  const e = error as { code?: unknown; message?: string; column?: string };
  if (typeof e.code !== 'string') return error;
  const message = e.message ?? 'rejected by the database';
  // Class 22 is data exception: too long (22001), out of range (22003, 22008), bad value (22P02).
  if (e.code.startsWith('22')) return new StoreRejected('value', message, e.column ?? '');
  if (e.code === '23503') return new StoreRejected('reference', message);
  if (e.code === '23505') return new StoreRejected('duplicate', message);
  return error;
}

export class SqlRepository<T extends { id: number }> implements Repository<T> {
  protected readonly select: string;

  constructor(
    protected readonly pool: pg.Pool,
    private readonly spec: TableSpec,
  ) {
    const fields = spec.columns.map((c) => `${c.read ?? `t.${c.column}`} AS "${c.field}"`);
    const link = spec.link;
    if (link)
      fields.push(
        `ARRAY(SELECT l.${link.column} FROM ${link.table} l WHERE l.${link.key} = t.id ORDER BY 1) AS "${link.field}"`,
      );
    this.select = `SELECT t.id, ${fields.join(', ')} FROM ${spec.table} t`;
  }

  protected async query<R extends pg.QueryResultRow>(
    text: string,
    values: unknown[] = [],
    client: pg.Pool | pg.PoolClient = this.pool,
  ): Promise<pg.QueryResult<R>> {
    try {
      return await client.query<R>(text, values);
    } catch (error) {
      throw rejected(error);
    }
  }

  async list(): Promise<T[]> {
    return (await this.query<T>(`${this.select} ORDER BY t.id`)).rows;
  }

  async listPage(range: { offset: number; limit: number }) {
    const [page, count] = await Promise.all([
      this.query<T>(`${this.select} ORDER BY t.id LIMIT $1 OFFSET $2`, [range.limit, range.offset]),
      this.query<{ n: string }>(`SELECT count(*) AS n FROM ${this.spec.table}`),
    ]);
    return { records: page.rows, total: Number(count.rows[0]!.n) };
  }

  async listBy<K extends keyof T>(field: K, value: T[K]): Promise<T[]> {
    return (await this.query<T>(`${this.select} WHERE t.${this.column(field)} = $1 ORDER BY t.id`, [value]))
      .rows;
  }

  async listIn<K extends keyof T>(field: K, values: readonly T[K][]): Promise<T[]> {
    if (values.length === 0) return [];
    // One array parameter, whatever the count: the statement's text (and plan) stays the same.
    return (
      await this.query<T>(`${this.select} WHERE t.${this.column(field)} = ANY($1) ORDER BY t.id`, [
        [...values],
      ])
    ).rows;
  }

  private column(field: keyof T): string {
    if (field === 'id') return 'id';
    const column = this.spec.columns.find((c) => c.field === field);
    if (!column) throw new Error(`${String(field)} is not a column of ${this.spec.table}`);
    return column.column;
  }

  async get(id: number): Promise<T | undefined> {
    return (await this.query<T>(`${this.select} WHERE t.id = $1`, [id])).rows[0];
  }

  async insert(fields: Omit<T, 'id'>): Promise<T> {
    const { columns } = this.spec;
    const values = columns.map((c) => (fields as Record<string, unknown>)[c.field]);
    const marks = columns.map((_, i) => `$${i + 1}`).join(', ');
    const sql = `INSERT INTO ${this.spec.table} (${columns.map((c) => c.column).join(', ')}) VALUES (${marks}) RETURNING id`;
    const id = await this.write(async (client) => {
      const row = (await this.query<{ id: number }>(sql, values, client)).rows[0]!;
      await this.writeLinks(client, row.id, fields);
      return row.id;
    });
    return { ...fields, id } as T;
  }

  async update(id: number, fields: Omit<T, 'id'>): Promise<boolean> {
    const { columns } = this.spec;
    const values = columns.map((c) => (fields as Record<string, unknown>)[c.field]);
    const sets = columns.map((c, i) => `${c.column} = $${i + 2}`).join(', ');
    return this.write(async (client) => {
      const result = await this.query(
        `UPDATE ${this.spec.table} SET ${sets} WHERE id = $1`,
        [id, ...values],
        client,
      );
      if (result.rowCount === 0) return false;
      const link = this.spec.link;
      if (link) await this.query(`DELETE FROM ${link.table} WHERE ${link.key} = $1`, [id], client);
      await this.writeLinks(client, id, fields);
      return true;
    });
  }

  async delete(id: number): Promise<boolean> {
    return ((await this.query(`DELETE FROM ${this.spec.table} WHERE id = $1`, [id])).rowCount ?? 0) > 0;
  }

  /** One statement on any connection, or a transaction when the record has link rows too. */
  private async write<R>(work: (client: pg.Pool | pg.PoolClient) => Promise<R>): Promise<R> {
    if (!this.spec.link) return work(this.pool);
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (error) {
      throw rejected(error);
    }
    let failed: Error | undefined;
    try {
      await this.query('BEGIN', [], client);
      const result = await work(client);
      await this.query('COMMIT', [], client);
      return result;
    } catch (error) {
      failed = error instanceof Error ? error : new Error(String(error));
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      // A connection that failed mid-transaction (a timeout, a broken socket) is dropped, not reused.
      client.release(failed);
    }
  }

  private async writeLinks(client: pg.Pool | pg.PoolClient, id: number, fields: Omit<T, 'id'>) {
    const link = this.spec.link;
    if (!link) return;
    const list = (fields as Record<string, unknown>)[link.field] as unknown[];
    if (list.length === 0) return;
    await this.query(
      `INSERT INTO ${link.table} (${link.key}, ${link.column}) SELECT $1, x FROM unnest($2::${link.type}[]) AS x ON CONFLICT DO NOTHING`,
      [id, list],
      client,
    );
  }
}

class SqlOwners extends SqlRepository<OwnerRecord> implements OwnerRepository {
  async findByLastName(prefix: string, range?: { offset: number; limit: number }) {
    // LIKE with the prefix's own % and _ escaped: a prefix match that can use the text_pattern_ops index.
    const filter = prefix ? [`${prefix.replace(/[\\%_]/g, '\\$&')}%`] : [];
    const where = prefix ? 'WHERE t.last_name LIKE $1' : '';
    const n = filter.length;
    const page = range ? `LIMIT $${n + 1} OFFSET $${n + 2}` : '';
    const values = range ? [...filter, range.limit, range.offset] : filter;
    const records = (await this.query<OwnerRecord>(`${this.select} ${where} ORDER BY t.id ${page}`, values))
      .rows;
    const total = range
      ? Number(
          (await this.query<{ n: string }>(`SELECT count(*) AS n FROM owners t ${where}`, filter)).rows[0]!.n,
        )
      : records.length;
    return { records, total };
  }
}

/** The health check's own bound: a probe must answer quickly, whatever the pool holds. */
const PING_TIMEOUT_MS = 1000;

const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export interface PostgresOptions {
  url: string;
  /** The instance's schema: lower-case letters, digits and _ (it is part of SQL text). */
  schema: string;
  maxConnections?: number;
  timeouts?: Partial<DbTimeouts>;
}

/** How long a request may wait on the database before it answers 503 (milliseconds). */
export interface DbTimeouts {
  /** For a pool connection (all 10 busy) or a new connection to the server. */
  acquire: number;
  /** For one statement, on the server (statement_timeout). */
  statement: number;
  /** For a lock another session holds (lock_timeout): a locked table answers 503, not a hang. */
  lock: number;
  /** For any answer at all, on the client: a frozen server sends nothing, so only this fires. */
  read: number;
}

export const DB_TIMEOUTS: DbTimeouts = { acquire: 2000, statement: 5000, lock: 2000, read: 6000 };

/** Connects, migrates and returns the store; rejects when the server is unreachable or refuses. */
export async function createPostgresStore(options: PostgresOptions): Promise<ClinicStore> {
  if (!SCHEMA_NAME.test(options.schema)) throw new Error(`bad schema name "${options.schema}"`);
  const timeouts = { ...DB_TIMEOUTS, ...options.timeouts };
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: timeouts.acquire,
    statement_timeout: timeouts.statement,
    lock_timeout: timeouts.lock,
    query_timeout: timeouts.read,
    // A transaction left open (a client gone mid-write) must not hold its locks for ever.
    idle_in_transaction_session_timeout: timeouts.read,
    options: `-c search_path=${options.schema}`,
  });
  // An idle connection the server drops is the pool's to replace, not a crash of the clinic.
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await migrate(client, options.schema);
    } finally {
      client.release();
    }
  } catch (error) {
    await pool.end().catch(() => {});
    throw error;
  }
  const table = <T extends { id: number }>(spec: TableSpec) => new SqlRepository<T>(pool, spec);
  const named = (name: string) =>
    table<NamedRecord>({ table: name, columns: [{ field: 'name', column: 'name' }] });
  const person = [
    { field: 'firstName', column: 'first_name' },
    { field: 'lastName', column: 'last_name' },
  ];
  let closed: Promise<void> | undefined;
  return {
    kind: 'postgres',
    owners: new SqlOwners(pool, {
      table: 'owners',
      columns: [
        ...person,
        { field: 'address', column: 'address' },
        { field: 'city', column: 'city' },
        { field: 'telephone', column: 'telephone' },
      ],
    }),
    pets: table<PetRecord>({
      table: 'pets',
      columns: [
        { field: 'name', column: 'name' },
        { field: 'birthDate', column: 'birth_date', read: 't.birth_date::text' },
        { field: 'typeId', column: 'type_id' },
        { field: 'ownerId', column: 'owner_id' },
      ],
    }),
    visits: table<VisitRecord>({
      table: 'visits',
      columns: [
        { field: 'petId', column: 'pet_id' },
        { field: 'date', column: 'visit_date', read: 't.visit_date::text' },
        { field: 'description', column: 'description' },
      ],
    }),
    petTypes: named('types'),
    specialties: named('specialties'),
    vets: table<VetRecord>({
      table: 'vets',
      columns: person,
      link: {
        field: 'specialtyIds',
        table: 'vet_specialties',
        key: 'vet_id',
        column: 'specialty_id',
        type: 'int',
      },
    }),
    users: table<UserRecord>({
      table: 'users',
      columns: [
        { field: 'username', column: 'username' },
        { field: 'passwordHash', column: 'password_hash' },
        { field: 'enabled', column: 'enabled' },
      ],
      link: { field: 'roles', table: 'roles', key: 'user_id', column: 'role', type: 'varchar' },
    }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    ping: async () => {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new StoreUnavailable('no answer to SELECT 1 in time')),
          PING_TIMEOUT_MS,
        );
      });
      try {
        await Promise.race([pool.query('SELECT 1'), late]);
      } catch (error) {
        throw rejected(error);
      } finally {
        clearTimeout(timer);
      }
    },
    // pool.end() waits for checked-out clients to come back, so writes in flight finish first.
    close: () => (closed ??= pool.end()),
  };
}
