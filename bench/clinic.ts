// `npm run bench:clinic`: the clinic next to references in one command (interleaved rounds:
// bench/lib/interleaved.ts), on the in-memory store and, where PostgreSQL is installed, on a
// throw-away PostgreSQL cluster. The references: a minimal Express app doing the same store work
// (bench/lib/store-express.ts) and, in memory, one answering a fixed owner JSON.
// Goals: GET /owners/{id} at least 0.8x the fixed-JSON Express app in memory; on PostgreSQL the
// clinic's own layers cost under 25 %, i.e. at least 0.8x the same-work reference.
import { compareInterleaved, goalLine } from './lib/interleaved.js';
import type { Case } from './lib/measure.js';
import { findPostgresBin, startPgServer } from '../devkit/postgres.js';

const owner = JSON.stringify({
  firstName: 'Bench',
  lastName: 'Mark',
  address: '1 Load St.',
  city: 'Perfville',
  telephone: '6085551234',
});

// The write case comes last so it does not grow what the read before it returns.
const CASES: Case[] = [
  { name: 'GET /owners', path: '/petclinic/api/owners' },
  { name: 'GET /owners/{id}', path: '/petclinic/api/owners/1' },
  { name: 'POST /owners', method: 'POST', path: '/petclinic/api/owners', body: owner },
];

console.log('== in-memory store ==');
const memory = await compareInterleaved('bench:clinic', 'clinic', ['store-express', 'express'], CASES);
console.log(goalLine(memory, 'GET /owners/{id}', 'clinic', 'express', 1, 0.8));
console.log(goalLine(memory, 'GET /owners/{id} (same store work)', 'clinic', 'store-express', 1, 0.8));
console.log(goalLine(memory, 'POST /owners (same store work)', 'clinic', 'store-express', 2, 0.8));

const bin = findPostgresBin();
if (!bin) {
  console.log('\nPostgreSQL: skipped, no initdb/postgres binaries (apt-get install postgresql)');
} else {
  const server = await startPgServer(bin);
  try {
    process.env.BENCH_DATABASE_URL = server.url; // the targets inherit it
    console.log('\n== PostgreSQL store (throw-away local cluster, fsync off) ==');
    const pg = await compareInterleaved('bench:clinic', 'clinic-pg', ['store-express-pg'], CASES);
    console.log(goalLine(pg, 'GET /owners/{id} on PostgreSQL', 'clinic-pg', 'store-express-pg', 1, 0.8));
    console.log(goalLine(pg, 'POST /owners on PostgreSQL', 'clinic-pg', 'store-express-pg', 2, 0.8));
  } finally {
    await server.stop();
  }
}
