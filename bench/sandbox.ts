// `npm run bench:sandbox`: the sandbox next to a bare node:http server and a minimal Express app
// answering the same JSON, in one command. Goal: /health at least 0.9x the minimal Express app.
import { SANDBOX_BENCH_CREDENTIALS } from './lib/serve.js';
import { compare } from './lib/measure.js';

await compare(
  'bench:sandbox',
  'sandbox',
  ['express', 'bare'],
  [
    { name: 'GET /health', path: '/health' },
    { name: 'GET /api/users', path: '/api/users' },
    {
      name: 'POST /api/auth/login',
      method: 'POST',
      path: '/api/auth/login',
      body: JSON.stringify(SANDBOX_BENCH_CREDENTIALS),
    },
  ],
);
