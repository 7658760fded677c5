// `npm run bench:clinic`: the clinic next to a minimal Express app answering a fixed owner JSON, in
// one command (interleaved rounds: bench/lib/interleaved.ts).
// Goal: GET /owners/{id} at least 0.8x the minimal Express app.
import { compareInterleaved, goalLine } from './lib/interleaved.js';
import type { Case } from './lib/measure.js';

const owner = JSON.stringify({
  firstName: 'Bench',
  lastName: 'Mark',
  address: '1 Load St.',
  city: 'Perfville',
  telephone: '6085551234',
});

// Cases that create data (POST) come last so they do not grow what the reads before them return.
const CASES: Case[] = [
  { name: 'GET /owners', path: '/petclinic/api/owners' },
  { name: 'GET /owners/{id}', path: '/petclinic/api/owners/1' },
  { name: 'POST /owners', method: 'POST', path: '/petclinic/api/owners', body: owner },
];

const result = await compareInterleaved('bench:clinic', 'clinic', ['express'], CASES);
console.log(goalLine(result, 'GET /owners/{id}', 'clinic', 'express', 1, 0.8));
