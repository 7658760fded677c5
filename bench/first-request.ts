// `npm run bench:first-request`: what the first requests of a run cost, on real k6 and on the
// runner, from their command lines against a bare node:http target in its own process. One VU,
// 5 iterations of one http.get; from each run's NDJSON output: the first request's
// http_req_duration and http_req_blocked, the first iteration's duration, and the median duration
// of requests 2-5. Runs alternate (k6, runner without the HTTP warm-up, runner as shipped), BENCH_ROUNDS
// times (default 7), and the medians are printed with their ratios to k6 (when there is a real
// k6: REAL_K6, ../shared/tools/k6 or k6 on PATH). BENCH_VERBOSE=1 prints every round's figures.
import { ndjsonPoints } from '@loadlab/k6-format/ndjson';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../devkit/loadlab-run.js';
import { realK6 } from '../devkit/real-k6.js';
import { benchInt } from './lib/bench-env.js';
import { median } from './lib/engine-run.js';
import { startTarget } from './lib/measure.js';

const ROUNDS = benchInt('BENCH_ROUNDS', 7, 50);

interface FirstRequests {
  firstDuration: number;
  firstBlocked: number;
  firstIteration: number;
  laterDuration: number;
}

type Variant = { name: string; engine: 'k6' | 'node'; env: Record<string, string> };

const dir = mkdtempSync(join(tmpdir(), 'loadlab-first-request-'));
const script = join(dir, 'first.js');
writeFileSync(
  script,
  `import http from 'k6/http';\nexport const options = { vus: 1, iterations: 5 };\nexport default function () { http.get(__ENV.URL); }\n`,
);

/** Point values of one metric, in time order. */
function points(ndjson: string, metric: string): number[] {
  return ndjsonPoints(ndjson, metric)
    .sort((a, b) => Date.parse(a.data.time) - Date.parse(b.data.time))
    .map((p) => p.data.value);
}

async function measure(v: Variant, url: string, round: number): Promise<FirstRequests> {
  const out = join(dir, `${v.name.replace(/\W+/g, '-')}-${round}.ndjson`);
  const run = await runLoadlab(['-q', '--summary-mode=disabled', '-o', `json=${out}`, script], {
    engine: v.engine,
    env: { URL: `${url}/`, K6_NO_USAGE_REPORT: 'true', ...v.env },
    timeoutMs: 60_000,
  });
  if (run.code !== 0)
    throw new Error(`${v.name} exited with ${run.code ?? run.signal}: ${run.stderr.slice(-1500)}`);
  const text = readFileSync(out, 'utf8');
  const durations = points(text, 'http_req_duration');
  if (durations.length !== 5) throw new Error(`${v.name}: ${durations.length} requests, expected 5`);
  return {
    firstDuration: durations[0]!,
    firstBlocked: points(text, 'http_req_blocked')[0]!,
    firstIteration: points(text, 'iteration_duration')[0]!,
    laterDuration: median(durations.slice(1)),
  };
}

const k6 = realK6();
const variants: Variant[] = [
  ...(k6 ? [{ name: 'k6', engine: 'k6' as const, env: {} }] : []),
  { name: 'runner, no warm-up', engine: 'node', env: { LOADLAB_HTTP_WARMUP: '0' } },
  { name: 'runner', engine: 'node', env: {} },
];
const target = await startTarget('bare');
const results = new Map<string, FirstRequests[]>(variants.map((v) => [v.name, []]));
try {
  for (let round = 0; round < ROUNDS; round++) {
    // The order rotates, so a machine getting busier is charged to no variant in particular.
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(round + i) % variants.length]!;
      results.get(v.name)!.push(await measure(v, target.url, round));
    }
  }
} finally {
  await target.stop();
}

const ms = (n: number) => `${n.toFixed(2)} ms`;
const keys: [keyof FirstRequests, string][] = [
  ['firstDuration', 'first http_req_duration'],
  ['firstBlocked', 'first http_req_blocked'],
  ['firstIteration', 'first iteration_duration'],
  ['laterDuration', 'http_req_duration, requests 2-5'],
];
const med = (name: string, key: keyof FirstRequests) => median(results.get(name)!.map((r) => r[key]));
console.log(
  `medians of ${ROUNDS} rounds, 1 VU, 5 iterations of one http.get against a bare node:http target`,
);
for (const [key, label] of keys) {
  const cells = variants.map((v) => {
    const value = med(v.name, key);
    const ratio = k6 && v.name !== 'k6' ? ` (${(value / med('k6', key)).toFixed(1)}x k6)` : '';
    return `${v.name} ${ms(value)}${ratio}`;
  });
  console.log(`${label}: ${cells.join(', ')}`);
}
if (process.env.BENCH_VERBOSE === '1') {
  for (const v of variants) console.log(v.name, JSON.stringify(results.get(v.name)));
}
if (!k6) console.log('no real k6 here (REAL_K6, ../shared/tools/k6 or k6 on PATH): runner figures only');
