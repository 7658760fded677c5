// The conformance corpus: small k6 scripts, each about behaviours of k6 the runner claims, run on
// real k6 and on the runner by corpus-vs-real-k6.e2e.test.ts and compared with run-shape.ts. Each writes
// its handleSummary data to $SUMMARY_JSON; BASE_URL is the reference target (devkit/loadlab-run.ts
// startReferenceTarget).

import { fileURLToPath } from 'node:url';

export interface CorpusCase {
  name: string;
  /** What the case is about (the test's title). */
  about: string;
  script: string;
  args?: string[];
  /** Both engines must exit with this code. */
  exitCode: number;
  /** Compare check counts, counter counts and tag values: false when timing decides them. */
  counts: boolean;
  /** Lines both engines must log (on stderr). */
  logs?: string[];
  /** What neither engine may log. */
  absentLogs?: string[];
}

/** A data file of the k6/experimental/csv fixtures, by absolute path (corpus scripts run from a temp folder). */
const PEOPLE_CSV = fileURLToPath(new URL('../modules/fixtures/io/people.csv', import.meta.url));

const SUMMARY =
  'export function handleSummary(data) { return { [__ENV.SUMMARY_JSON]: JSON.stringify(data) }; }';

const script = (...lines: string[]) => [...lines, SUMMARY, ''].join('\n');

export const CORPUS: CorpusCase[] = [
  {
    name: 'iteration-executors',
    about: 'shared-iterations with as many iterations as VUs, per-vu-iterations, exec.* values',
    exitCode: 0,
    counts: true,
    script: script(
      "import http from 'k6/http';",
      "import { check } from 'k6';",
      "import exec from 'k6/execution';",
      "import { Counter } from 'k6/metrics';",
      "const byExecutor = new Counter('by_executor');",
      'export const options = {',
      '  scenarios: {',
      "    few: { executor: 'shared-iterations', vus: 2, iterations: 2, exec: 'work', tags: { kind: 'few' } },",
      "    each: { executor: 'per-vu-iterations', vus: 2, iterations: 3, exec: 'work', startTime: '100ms' },",
      '  },',
      '};',
      'export function work() {',
      "  http.get(`${__ENV.BASE_URL}/health`, { tags: { name: 'health' } });",
      '  byExecutor.add(1, { executor: exec.scenario.executor });',
      '  check(exec, {',
      "    'vu ids within the test': (e) => e.vu.idInTest >= 1 && e.vu.idInTest <= 4,",
      "    'iteration in scenario below its total': (e) => e.scenario.iterationInTest < (e.scenario.name === 'few' ? 2 : 6),",
      "    'instance counts every VU': (e) => e.instance.vusInitialized === 4,",
      "    'scenario name is a tag': (e) => e.vu.tags.scenario === e.scenario.name,",
      "    'start time before now': (e) => e.scenario.startTime <= Date.now(),",
      '  });',
      '}',
    ),
  },
  {
    name: 'time-executors',
    about: 'constant-vus, ramping-vus to 0, both arrival rates, startTime, dropped iterations',
    exitCode: 0,
    counts: false,
    script: script(
      "import http from 'k6/http';",
      "import { sleep } from 'k6';",
      'export const options = {',
      '  scenarios: {',
      "    constant: { executor: 'constant-vus', vus: 2, duration: '1s' },",
      "    ramp: { executor: 'ramping-vus', startVUs: 1, stages: [{ duration: '500ms', target: 2 }, { duration: '500ms', target: 0 }], gracefulRampDown: '0s' },",
      "    rate: { executor: 'constant-arrival-rate', rate: 10, timeUnit: '1s', duration: '1s', preAllocatedVUs: 2, startTime: '200ms' },",
      "    ramp_rate: { executor: 'ramping-arrival-rate', startRate: 2, timeUnit: '1s', preAllocatedVUs: 2, stages: [{ duration: '1s', target: 8 }] },",
      // One VU for 20 arrivals a second of 300 ms iterations: k6 drops most of them.
      "    starved: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '1s', preAllocatedVUs: 1, maxVUs: 1, exec: 'slow' },",
      '  },',
      '};',
      'export default function () { http.get(`${__ENV.BASE_URL}/health`); sleep(0.1); }',
      'export function slow() { sleep(0.3); }',
    ),
  },
  {
    name: 'thresholds-abort',
    about: 'abortOnFail with delayAbortEval stops the run (exit 99); other thresholds still judged',
    exitCode: 99,
    counts: false,
    script: script(
      "import http from 'k6/http';",
      "import { check, sleep } from 'k6';",
      'export const options = {',
      "  scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '20s' } },",
      '  thresholds: {',
      "    http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '1s' }],",
      "    'http_req_duration{name:fail}': ['p(95)<10000'],",
      "    checks: ['rate>0.5'],",
      "    iterations: ['count>1000'],",
      '  },',
      '};',
      'export default function () {',
      "  const res = http.get(`${__ENV.BASE_URL}/fail`, { tags: { name: 'fail' } });",
      "  check(res, { 'is 500': (r) => r.status === 500 });",
      '  sleep(0.1);',
      '}',
    ),
  },
  {
    name: 'cut-requests',
    about: 'a request the end of the test cuts short is neither sampled nor logged as failed',
    exitCode: 0,
    counts: true,
    absentLogs: ['Request Failed'],
    // 1.5 s, not 1: k6 writes vus and vus_max at each whole second of the run, and a run that ends
    // at 1 s has that sample or not as the tick and the end race (k6 wrote none once, in CI).
    script: script(
      "import http from 'k6/http';",
      "export const options = { scenarios: { s: { executor: 'constant-vus', vus: 1, duration: '1500ms', gracefulStop: '0s' } } };",
      'export default function () { http.get(`${__ENV.BASE_URL}/slow?ms=3000`); }',
    ),
  },
  {
    name: 'lifecycle',
    about: 'setup data reaches the iterations and teardown; their requests, groups and checks',
    exitCode: 0,
    counts: true,
    script: script(
      "import http from 'k6/http';",
      "import { check, group } from 'k6';",
      'export const options = { vus: 1, iterations: 2 };',
      'export function setup() {',
      '  http.get(`${__ENV.BASE_URL}/health`);',
      "  return { token: 'abc', n: 3 };",
      '}',
      'export default function (data) {',
      "  group('uses setup data', () => {",
      "    check(data, { 'token arrived': (d) => d.token === 'abc' });",
      '  });',
      '}',
      'export function teardown(data) {',
      '  http.get(`${__ENV.BASE_URL}/api/users`);',
      "  check(data, { 'teardown sees n': (d) => d.n === 3 });",
      '}',
    ),
  },
  {
    name: 'http-features',
    about: 'redirects, cookies, timeouts, http.batch, nested groups, request, scenario and CLI tags',
    exitCode: 0,
    counts: true,
    args: ['--tag', 'cli_tag=z'],
    script: script(
      "import http from 'k6/http';",
      "import { check, group } from 'k6';",
      "export const options = { vus: 1, iterations: 2, tags: { run_tag: 'y' } };",
      'const B = __ENV.BASE_URL;',
      'export default function () {',
      "  group('redirects', () => {",
      '    const followed = http.get(`${B}/redirect/2`);',
      "    check(followed, { 'followed to health': (r) => r.status === 200 && r.url.endsWith('/health') });",
      '    const kept = http.get(`${B}/redirect/1`, { redirects: 0 });',
      "    check(kept, { 'not followed': (r) => r.status === 302 });",
      '  });',
      "  group('cookies', () => {",
      '    http.get(`${B}/cookies/set?flavour=oat`);',
      "    check(http.get(`${B}/cookies`), { 'jar sends it': (r) => r.json('cookie').includes('flavour=oat') });",
      "    http.cookieJar().set(B, 'extra', 'one');",
      "    check(http.get(`${B}/cookies`), { 'set by script': (r) => r.json('cookie').includes('extra=one') });",
      '  });',
      "  group('outer', () => {",
      "    group('inner', () => {",
      "      const slow = http.get(`${B}/slow?ms=1500`, { timeout: '200ms', tags: { my_tag: 'x' } });",
      "      check(slow, { 'timed out': (r) => r.status === 0 && r.error_code === 1050 });",
      '    });',
      '  });',
      '  const [a, b] = http.batch([',
      "    ['GET', `${B}/health`, null, { tags: { name: 'batch_health' } }],",
      "    { method: 'GET', url: `${B}/api/users` },",
      '  ]);',
      "  check(a, { 'batch first 200': (r) => r.status === 200 });",
      "  check(b, { 'batch second 200': (r) => r.status === 200 });",
      '}',
    ),
  },
  {
    name: 'test-abort',
    about: 'exec.test.abort() in an iteration stops the run with exit 108, summary still written',
    exitCode: 108,
    counts: true,
    script: script(
      "import http from 'k6/http';",
      "import exec from 'k6/execution';",
      'export const options = { vus: 1, iterations: 5 };',
      'export default function () {',
      '  http.get(`${__ENV.BASE_URL}/health`);',
      "  if (exec.scenario.iterationInTest === 1) exec.test.abort('enough');",
      '}',
    ),
  },
  {
    name: 'iteration-errors',
    about: 'an exception in some iterations: logged, the run goes on, exit 0',
    exitCode: 0,
    counts: true,
    script: script(
      "import http from 'k6/http';",
      "import { check } from 'k6';",
      "import exec from 'k6/execution';",
      'export const options = { vus: 1, iterations: 4 };',
      'export default function () {',
      '  http.get(`${__ENV.BASE_URL}/health`);',
      "  if (exec.scenario.iterationInTest % 2) throw new Error('odd iteration');",
      "  check(true, { 'even iteration done': (v) => v });",
      '}',
    ),
  },
  {
    name: 'invalid-scenarios',
    about: 'every scenario configuration error in one message, exit 104',
    exitCode: 104,
    counts: true,
    logs: [
      "scenario few has configuration errors: the number of iterations (2) can't be less than the number of VUs (3)",
      "scenario rate has configuration errors: the number of preAllocatedVUs isn't specified",
    ],
    script: script(
      'export const options = {',
      '  scenarios: {',
      "    few: { executor: 'shared-iterations', vus: 3, iterations: 2 },",
      "    rate: { executor: 'constant-arrival-rate', rate: 1, duration: '1s' },",
      '  },',
      '};',
      'export default function () {}',
    ),
  },
  {
    name: 'init-error',
    about: 'an exception in init stops the run with exit 107, before any summary',
    exitCode: 107,
    counts: true,
    logs: ['boom in init', 'hint="script exception"'],
    script: script("throw new Error('boom in init');", 'export default function () {}'),
  },
  {
    name: 'io-modules',
    about:
      'k6/experimental/fs, csv and streams, k6/secrets with --secret-source (redacted in logs), a WebCrypto key',
    exitCode: 0,
    counts: true,
    args: ['--secret-source=mock=token=s3cr3t'],
    logs: ['token is ***SECRET_REDACTED***'],
    absentLogs: ['s3cr3t'],
    script: script(
      "import http from 'k6/http';",
      "import { check } from 'k6';",
      "import { open } from 'k6/experimental/fs';",
      "import csv from 'k6/experimental/csv';",
      "import { ReadableStream } from 'k6/experimental/streams';",
      "import secrets from 'k6/secrets';",
      "export const options = { iterations: 2, thresholds: { checks: ['rate==1'] } };",
      `const people = open(${JSON.stringify(PEOPLE_CSV)}).then((f) => csv.parse(f, { asObjects: true }));`,
      'export default async function () {',
      '  const rows = await people;',
      "  const token = await secrets.get('token');",
      '  const res = http.get(`${__ENV.BASE_URL}/health`, { headers: { Authorization: `Bearer ${token}` } });',
      "  const reader = new ReadableStream({ start(c) { c.enqueue('a'); c.close(); } }).getReader();",
      '  const first = await reader.read();',
      "  const key = await crypto.subtle.generateKey({ name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);",
      "  check(rows, { 'three people': (r) => r.length === 3 && r[2].name === 'c, d' });",
      "  check(res, { 'health 200': (r) => r.status === 200 });",
      "  check(first, { 'stream read': (r) => r.value === 'a' && !r.done });",
      "  check(key, { 'key JSON': (k) => JSON.parse(JSON.stringify(k)).algorithm.hash.name === 'SHA-256' });",
      '  console.log(`token is ${token}`);',
      '}',
    ),
  },
];
