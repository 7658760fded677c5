// Report generation time for 7 runs of synthetic NDJSON shaped like k6's (`--out json`), printed with
// two references measured in the same command on the same files: reading every line (the floor of
// any streaming reader) and reading + JSON.parse of every line (the naive way).
// Size: BENCH_REQUESTS requests per run (default 10000, about 10 lines each, 5 minutes of samples).
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { once } from 'node:events';
import { generateReports } from '../report/generate.js';
import type { RunInput } from '../report/model.js';
import { K6_SAMPLES } from '../devkit/k6-reference.js';
import { HTTP_TIMING_METRICS } from '@loadlab/k6-format/http-timings';
import { metricLine, pointLine } from '@loadlab/k6-format/ndjson';
import type { MetricType, ValueType } from '@loadlab/k6-format/samples';

const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 10_000);
const RUNS = [
  'smoke',
  'load-auth',
  'load-users',
  'mixed-traffic',
  'login-flow',
  'authenticated-user',
  'spike',
];
const ENDPOINTS = [
  ['GET /health', 'health', 'GET'],
  ['GET /api/users', 'users', 'GET'],
  ['POST /api/auth/login', 'auth_login', 'POST'],
  ['GET /web/login.html', 'static', 'GET'],
  ['GET /web/dashboard.html', 'static', 'GET'],
  ['GET /web/team.html', 'static', 'GET'],
] as const;
const HTTP_TRENDS = HTTP_TIMING_METRICS.filter((name) => name !== 'http_req_duration');

// Deterministic pseudo-random numbers so every run of the benchmark reads the same bytes.
let seed = 42;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;

async function writeRun(path: string, scenario: string): Promise<number> {
  const out = createWriteStream(path);
  let lines = 0;
  const write = async (line: string) => {
    lines++;
    if (!out.write(line)) await once(out, 'drain');
  };
  const metric = (name: string, type: MetricType, contains: ValueType) =>
    write(metricLine(name, type, contains));
  await metric('http_reqs', 'counter', 'default');
  await metric('http_req_duration', 'trend', 'time');
  for (const m of HTTP_TRENDS) await metric(m, 'trend', 'time');
  await metric('http_req_failed', 'rate', 'default');
  await metric('checks', 'rate', 'default');
  await metric('vus', 'gauge', 'default');
  const start = Date.parse('2026-11-22T12:00:00Z');
  const spanMs = 300_000;
  for (let i = 0; i < REQUESTS; i++) {
    const t = start + (i / REQUESTS) * spanMs;
    const time = new Date(t).toISOString().replace('Z', '123456Z');
    const [name, endpoint, method] = ENDPOINTS[i % ENDPOINTS.length] as (typeof ENDPOINTS)[number];
    const fail = rnd() < 0.01;
    const status = fail ? '500' : '200';
    const tags: Record<string, string> = {
      endpoint,
      expected_response: String(!fail),
      group: '',
      method,
      name,
      proto: 'HTTP/1.1',
      scenario,
      status,
      url: name,
      ...(fail ? { error_code: '1500' } : {}),
    };
    const point = (m: string, value: number, t2 = tags) => write(pointLine(m, time, value, t2));
    await point('http_reqs', 1);
    await point('http_req_duration', 1 + rnd() * 20 + (rnd() < 0.02 ? 200 : 0));
    for (const m of HTTP_TRENDS) await point(m, rnd());
    await point('http_req_failed', fail ? 1 : 0);
    await point('checks', fail ? 0 : 1, { ...tags, check: 'status 200' });
    if (i % 50 === 0) await point('vus', 5 + Math.round(rnd() * 20), {});
  }
  out.end();
  await once(out, 'finish');
  return lines;
}

async function timeIt<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const t0 = process.hrtime.bigint();
  const r = await fn();
  return [Number(process.hrtime.bigint() - t0) / 1e6, r];
}

async function readAll(paths: string[], parse: boolean): Promise<number> {
  let n = 0;
  for (const p of paths)
    for await (const line of createInterface({ input: createReadStream(p), crlfDelay: Infinity })) {
      if (parse && line) JSON.parse(line);
      n++;
    }
  return n;
}

const dir = await mkdtemp(join(tmpdir(), 'loadlab-bench-report-'));
try {
  const summary = readFileSync(`${K6_SAMPLES}/summary-pass.json`, 'utf8');
  const inputs: RunInput[] = [];
  let lines = 0;
  let bytes = 0;
  for (const s of RUNS) {
    const series = join(dir, `20261122T120000Z-${s}.ndjson`);
    const summaryPath = join(dir, `20261122T120000Z-${s}.json`);
    lines += await writeRun(series, s);
    await writeFile(summaryPath, summary);
    bytes += (await stat(series)).size;
    inputs.push({ scenario: s, runId: '20261122T120000Z', summaryPath, seriesPath: series });
  }
  const paths = inputs.map((i) => i.seriesPath as string);
  console.log(
    `input: 7 runs, ${REQUESTS} requests each, ${lines} NDJSON lines, ${(bytes / 1e6).toFixed(1)} MB`,
  );
  // Warm-up pass so file-cache state is the same for every measurement.
  await readAll(paths, false);
  const [tLines] = await timeIt(() => readAll(paths, false));
  const [tParse] = await timeIt(() => readAll(paths, true));
  const [tReport] = await timeIt(() => generateReports({ inputs, outDir: join(dir, 'out') }));
  const row = (label: string, ms: number) =>
    console.log(
      `${label.padEnd(44)} ${ms.toFixed(0).padStart(7)} ms  ${((bytes / 1e6 / ms) * 1000).toFixed(1).padStart(6)} MB/s  ${(((lines / ms) * 1000) / 1e6).toFixed(2)} M lines/s`,
    );
  row('reference: readline only', tLines);
  row('reference: readline + JSON.parse every line', tParse);
  row('report: 7 runs -> REPORT.md, HTML, JUnit', tReport);
  console.log(
    `ratio report / readline: ${(tReport / tLines).toFixed(2)}x; report / naive parse: ${(tReport / tParse).toFixed(2)}x`,
  );
} finally {
  await rm(dir, { recursive: true, force: true });
}
