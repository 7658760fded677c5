// `npm run bench:arrival-rate`: how closely the Node runner's constant-arrival-rate executor holds its
// rate. Runs `loadlab run` with RATE iterations/s for SECONDS against a bare node:http target in
// its own process and prints the achieved rate, its ratio to the target, dropped iterations and
// how many VUs were initialised.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../devkit/loadlab-run.js';
import { startTarget } from './lib/measure.js';

const RATE = Number(process.env.BENCH_RATE ?? 200);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
if (!(RATE > 0 && RATE <= 5000) || !(SECONDS > 0 && SECONDS <= 60)) {
  console.error('BENCH_RATE must be in (0, 5000] and BENCH_SECONDS in (0, 60]');
  process.exit(2);
}

const target = await startTarget('bare');
const dir = mkdtempSync(join(tmpdir(), 'loadlab-arrival-'));
const script = join(dir, 'arrival.js');
writeFileSync(
  script,
  `import http from 'k6/http';
export const options = { scenarios: { paced: { executor: 'constant-arrival-rate', rate: ${RATE}, timeUnit: '1s', duration: '${SECONDS}s', preAllocatedVUs: 20, maxVUs: 50 } } };
export default function () { http.get('${target.url}/health'); }
`,
);
const run = await runLoadlab([script, '-q', '--summary-export', join(dir, 'export.json')], {
  timeoutMs: (SECONDS + 60) * 1000,
});
await target.stop();
process.stderr.write(run.stderr);
const metrics = JSON.parse(readFileSync(join(dir, 'export.json'), 'utf8')).metrics as Record<
  string,
  { count?: number; max?: number }
>;
const iterations = metrics.iterations?.count ?? 0;
const dropped = metrics.dropped_iterations?.count ?? 0;
// VUs beyond preAllocatedVUs are initialised mid-run: how far the pool grew towards maxVUs.
const vusMax = metrics.vus_max?.max ?? 0;
const expected = RATE * SECONDS;
console.log(`constant-arrival-rate: target ${RATE}/s for ${SECONDS}s = ${expected} iterations`);
console.log(
  `completed ${iterations} (${(iterations / SECONDS).toFixed(1)}/s), dropped ${dropped}, VUs ${vusMax} (20 preallocated, max 50)`,
);
console.log(`ratio achieved/target: ${(iterations / expected).toFixed(3)}`);
