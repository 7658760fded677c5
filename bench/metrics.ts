// bench:metrics — samples/s through MetricsEngine.add + the NDJSON output, against a bare
// JSON.stringify loop over the same samples measured in the same process. Prints the ratio.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MetricsEngine, parseThresholds } from '../runner/metrics/index.js';
import { createJsonOutput } from '../runner/outputs/json.js';
import type { Sample } from '../runner/contracts.js';

const TOTAL = 400_000; // bounded: a few seconds on 2 cores
const BATCH = 100;
const names = ['http_req_duration', 'http_req_waiting', 'http_reqs', 'http_req_failed', 'checks'] as const;

function makeSamples(): Sample[] {
  const out: Sample[] = [];
  const t0 = Date.now();
  for (let i = 0; i < TOTAL; i++) {
    const metric = names[i % names.length]!;
    const type =
      metric === 'http_reqs'
        ? 'counter'
        : metric.endsWith('failed') || metric === 'checks'
          ? 'rate'
          : 'trend';
    out.push({
      metric,
      type,
      contains: type === 'trend' ? 'time' : 'default',
      value: type === 'rate' ? (i % 7 === 0 ? 1 : 0) : (i % 997) / 3,
      tags: {
        method: 'GET',
        status: i % 50 ? '200' : '500',
        scenario: 'default',
        expected_response: 'true',
        url: 'http://127.0.0.1/x',
      },
      time: t0 + i / 10,
    });
  }
  return out;
}

async function main(): Promise<void> {
  const samples = makeSamples();
  // Reference: serialising every sample once, which any NDJSON writer must at least do.
  let t = performance.now();
  let bytes = 0;
  for (const s of samples) bytes += JSON.stringify({ metric: s.metric, type: 'Point', data: s }).length;
  const refMs = performance.now() - t;

  const dir = mkdtempSync(join(tmpdir(), 'bench-metrics-'));
  try {
    const engine = new MetricsEngine({
      thresholds: parseThresholds({
        http_req_duration: ['p(95)<500'],
        'http_req_duration{status:200}': ['avg<300'],
      }),
    });
    const out = createJsonOutput({
      scriptPath: 'bench.js',
      options: {},
      argument: join(dir, 'points.ndjson'),
      env: {},
      warn: () => {},
    });
    await out.start();
    t = performance.now();
    for (let i = 0; i < samples.length; i += BATCH) {
      const batch = samples.slice(i, i + BATCH);
      engine.add(batch);
      out.addSamples(batch);
    }
    engine.evaluate({ final: true, elapsedMs: 1000 });
    await out.stop();
    const ms = performance.now() - t;
    const rate = (n: number, m: number) => Math.round((n / m) * 1000);
    console.log(`reference JSON.stringify loop: ${rate(TOTAL, refMs)} samples/s (${bytes} bytes)`);
    console.log(`engine.add + json output:      ${rate(TOTAL, ms)} samples/s`);
    console.log(`ratio (engine+json / reference): ${(refMs / ms).toFixed(2)}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : String(e));
  process.exit(1);
});
