// Test support: runs a block of tests once per store, on the in-memory store and on PostgreSQL.
// PostgreSQL is one throw-away cluster per mocha run (devkit/postgres.ts), started by the first block
// that needs it and stopped after all tests; each store it gives is a new schema with upstream's
// data. Where the binaries are missing, the PostgreSQL blocks skip, saying so in one line.
import { createMemoryStore } from './memory.js';
import { findPostgresBin, startPgServer, type PgServer } from '../../../devkit/postgres.js';
import { createPostgresStore } from './postgres.js';
import type { ClinicStore } from './types.js';

let server: Promise<PgServer> | undefined;
let schemas = 0;

// A root-level hook (this module is loaded while mocha collects the test files).
after(async () => {
  if (server) await (await server).stop();
});

/** The shared cluster's URL, starting it on first use; undefined when PostgreSQL is not installed. */
export async function testDatabaseUrl(): Promise<string | undefined> {
  const bin = findPostgresBin();
  if (!bin) return undefined;
  server ??= startPgServer(bin);
  return (await server).url;
}

export type StoreFactory = () => Promise<ClinicStore>;

/** `body` once per store; `fresh()` gives a new seeded store, closed after each test. */
export function describeEachStore(title: string, body: (fresh: StoreFactory) => void): void {
  describe(`${title} [memory store]`, () => body(async () => createMemoryStore({ seeded: true })));
  describe(`${title} [postgres store]`, function () {
    this.timeout(60_000);
    let url: string | undefined;
    const open: ClinicStore[] = [];
    before(async function () {
      url = await testDatabaseUrl();
      if (!url) {
        console.log('      skipped: no PostgreSQL binaries (initdb, postgres; apt-get install postgresql)');
        this.skip();
      }
    });
    afterEach(async () => {
      await Promise.all(open.splice(0).map((s) => s.close()));
    });
    body(async () => {
      const store = await createPostgresStore({ url: url!, schema: `test_${process.pid}_${++schemas}` });
      open.push(store);
      return store;
    });
  });
}
