// The script shapes of bench:wall (against a local target): each a k6 script
// that logs bench:wall's markers, with its planned duration.
import { MARK } from './wall-phases.js';

export interface WallShape {
  name: string;
  title: string;
  plannedMs: number;
  script: string;
}

function script(options: string, body: string, k6Imports = 'check'): string {
  return [
    "import http from 'k6/http';",
    `import { ${k6Imports} } from 'k6';`,
    `export const options = ${options};`,
    'export function setup() {',
    `  ${MARK('setup-start')}`,
    `  ${MARK('setup-end')}`,
    '}',
    'export default function () {',
    body,
    '}',
    'export function teardown() {',
    `  ${MARK('teardown-start')}`,
    '}',
    // The last line of the init code: this VU's init is done.
    MARK('init'),
    '',
  ].join('\n');
}

const GET = "  check(http.get(__ENV.URL), { 'status is 200': (r) => r.status === 200 });";

const initOnly = (vus: number): WallShape => ({
  name: `init-${vus}`,
  title: `${vus} VUs initialised, one iteration each`,
  plannedMs: 0,
  script: script(`{ scenarios: { s: { executor: 'per-vu-iterations', vus: ${vus}, iterations: 1 } } }`, GET),
});

export const WALL_SHAPES: WallShape[] = [
  {
    name: 'iterations-25',
    title: '1 VU, 25 iterations of one request, no sleep',
    plannedMs: 0,
    script: script('{ vus: 1, iterations: 25 }', GET),
  },
  {
    name: 'requests-5',
    title: '1 iteration of 5 requests',
    plannedMs: 0,
    script: script('{ vus: 1, iterations: 1 }', Array(5).fill(GET).join('\n')),
  },
  initOnly(1),
  initOnly(20),
  initOnly(60),
  initOnly(125),
  {
    name: 'arrival-60',
    title: 'constant-arrival-rate 20/s for 10 s, 60 pre-allocated VUs',
    plannedMs: 10_000,
    script: script(
      "{ scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '10s', preAllocatedVUs: 60 } } }",
      GET,
    ),
  },
  {
    name: 'ramping-125',
    title: 'ramping-vus 0 -> 125 VUs over 8 s, sleep 0.5 s per iteration',
    plannedMs: 8_000,
    script: script(
      "{ scenarios: { s: { executor: 'ramping-vus', stages: [{ duration: '8s', target: 125 }], gracefulRampDown: '0s' } } }",
      `${GET}\n  sleep(0.5);`,
      'check, sleep',
    ),
  },
];
