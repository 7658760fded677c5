// `npm run bench:sandbox`: the sandbox next to a bare node:http server and a minimal Express app
// answering the same JSON, in one command (interleaved rounds: bench/lib/interleaved.ts).
// Goal: /health at least 0.9x the minimal Express app.
import { compareInterleaved, goalLine } from './lib/interleaved.js';
import type { Case } from './lib/measure.js';
import { SANDBOX_BENCH_CREDENTIALS } from './lib/serve.js';

const CASES: Case[] = [
  { name: 'GET /health', path: '/health' },
  { name: 'GET /api/users', path: '/api/users' },
  {
    name: 'POST /api/auth/login',
    method: 'POST',
    path: '/api/auth/login',
    body: JSON.stringify(SANDBOX_BENCH_CREDENTIALS),
  },
];

const result = await compareInterleaved('bench:sandbox', 'sandbox', ['express', 'bare'], CASES);
console.log(goalLine(result, '/health', 'sandbox', 'express', 0, 0.9));
