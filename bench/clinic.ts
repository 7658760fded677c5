// `npm run bench:clinic`: the clinic next to a minimal Express app answering a fixed owner JSON, in
// one command. Goal: GET /owners/{id} at least 0.8x the minimal Express app.
import { compare } from './lib/measure.js';

const owner = JSON.stringify({
  firstName: 'Bench',
  lastName: 'Mark',
  address: '1 Load St.',
  city: 'Perfville',
  telephone: '6085551234',
});

await compare(
  'bench:clinic',
  'clinic',
  ['express'],
  [
    { name: 'GET /owners', path: '/petclinic/api/owners' },
    { name: 'GET /owners/{id}', path: '/petclinic/api/owners/1' },
    { name: 'POST /owners', method: 'POST', path: '/petclinic/api/owners', body: owner },
  ],
);
