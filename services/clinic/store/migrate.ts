// The clinic's schema in PostgreSQL and its first data, applied on start: version 1 creates the
// tables (column sizes from limits.ts, upstream's cascades as ON DELETE CASCADE) and inserts
// upstream's data.sql rows with parameterised statements. Users are not seeded: the secured
// instance makes its admin from ADMIN_USER / ADMIN_PASSWORD, as with the in-memory store.
import { readFileSync } from 'node:fs';
import type { PoolClient } from 'pg';
import { VARCHAR } from './limits.js';
import { sqlRows } from './sql-rows.js';

const V = VARCHAR;
const SCHEMA_V1 = `
CREATE TABLE vets (
  id SERIAL PRIMARY KEY,
  first_name VARCHAR(${V.personName}) NOT NULL,
  last_name VARCHAR(${V.personName}) NOT NULL
);
CREATE TABLE specialties (id SERIAL PRIMARY KEY, name VARCHAR(${V.typeName}) NOT NULL);
CREATE INDEX specialties_name ON specialties (name);
CREATE TABLE vet_specialties (
  vet_id INT NOT NULL REFERENCES vets (id) ON DELETE CASCADE,
  specialty_id INT NOT NULL REFERENCES specialties (id) ON DELETE CASCADE,
  PRIMARY KEY (vet_id, specialty_id)
);
CREATE TABLE types (id SERIAL PRIMARY KEY, name VARCHAR(${V.typeName}) NOT NULL);
CREATE TABLE owners (
  id SERIAL PRIMARY KEY,
  first_name VARCHAR(${V.personName}) NOT NULL,
  last_name VARCHAR(${V.personName}) NOT NULL,
  address VARCHAR(${V.address}) NOT NULL,
  city VARCHAR(${V.city}) NOT NULL,
  telephone VARCHAR(${V.telephone}) NOT NULL
);
CREATE INDEX owners_last_name ON owners (last_name text_pattern_ops);
CREATE TABLE pets (
  id SERIAL PRIMARY KEY,
  name VARCHAR(${V.petName}) NOT NULL,
  birth_date DATE NOT NULL,
  type_id INT NOT NULL REFERENCES types (id) ON DELETE CASCADE,
  owner_id INT NOT NULL REFERENCES owners (id) ON DELETE CASCADE
);
CREATE INDEX pets_owner_id ON pets (owner_id);
CREATE INDEX pets_type_id ON pets (type_id);
CREATE TABLE visits (
  id SERIAL PRIMARY KEY,
  pet_id INT NOT NULL REFERENCES pets (id) ON DELETE CASCADE,
  visit_date DATE NOT NULL,
  description VARCHAR(${V.description}) NOT NULL
);
CREATE INDEX visits_pet_id ON visits (pet_id);
CREATE TABLE users (
  id SERIAL PRIMARY KEY,
  username VARCHAR(${V.username}) NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  enabled BOOLEAN NOT NULL
);
CREATE TABLE roles (
  user_id INT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  role VARCHAR(${V.role}) NOT NULL,
  PRIMARY KEY (user_id, role)
);
`;

/** data.sql's tables in the order their references need; users and roles are left out (see above). */
const SEEDED = ['vets', 'specialties', 'vet_specialties', 'types', 'owners', 'pets', 'visits'];
const IDENT = /^[a-z_]+$/;

async function seedUpstream(client: PoolClient): Promise<void> {
  const rows = sqlRows(readFileSync(new URL('./upstream-data.sql', import.meta.url), 'utf8'));
  for (const table of SEEDED) {
    for (const row of rows.get(table) ?? []) {
      const columns = Object.keys(row);
      // Table and column names come from the file in this repository, checked to be plain words.
      if (![table, ...columns].every((name) => IDENT.test(name))) throw new Error(`bad name in data.sql`);
      const marks = columns.map((_, i) => `$${i + 1}`).join(', ');
      await client.query(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${marks})`,
        Object.values(row),
      );
    }
  }
}

/**
 * Brings `schema` to the current version in one transaction; an advisory lock keyed on the schema
 * lets two instances start at once without both creating it.
 */
export async function migrate(client: PoolClient, schema: string): Promise<void> {
  await client.query('BEGIN');
  try {
    // The pool's request timeouts are for requests: the lock may wait for another instance's
    // migration, and creating and seeding may take longer on a slow disk.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SET LOCAL lock_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock(hashtext($1))', [schema]);
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(`SET LOCAL search_path TO "${schema}"`);
    await client.query('CREATE TABLE IF NOT EXISTS schema_version (version INT NOT NULL)');
    const { rows } = await client.query<{ version: number }>(
      'SELECT max(version) AS version FROM schema_version',
    );
    if ((rows[0]?.version ?? 0) < 1) {
      await client.query(SCHEMA_V1);
      await seedUpstream(client);
      await client.query('INSERT INTO schema_version (version) VALUES (1)');
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  }
}
