// Bad options, each run on real k6 v1.3 and on the runner: the runner must print k6's lines and exit
// with k6's code. k6 has two families: what it meets while decoding the exported options into its Go
// struct ("could not initialize ...: could not load JS test ...") and what its validation finds after
// ("There were problems with the specified script configuration:" and one line per problem).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realK6 } from '../../devkit/real-k6.js';
import { logLinesAsync, realK6OrSkip, RUNNER } from '../testing/log-lines.js';

interface Layout {
  name: string;
  /** The exported options, as JS source. */
  options: string;
  flags?: string[];
  env?: Record<string, string>;
  status: number;
}

/**
 * The dns option: decoded by k6's DNSConfig (Go's json errors, its enums' words: 104), its ttl then
 * read by k6's parseTTL (255, still "could not load JS test"). [what, the dns value, exit code]
 */
/** Options whose threshold every run crosses (exit 99 unless thresholds are off). */
const THRESHOLD_CROSSED = "{ iterations: 1, thresholds: { iterations: ['count<0'] } }";

const DNS_LAYOUTS: Layout[] = (
  [
    ['a dns ttl that is no duration', "{ ttl: 'abc' }", 255],
    ['a negative dns ttl', "{ ttl: '-1s' }", 255],
    ['a negative dns ttl in milliseconds', "{ ttl: '-5' }", 255],
    ['a dns ttl in an unknown unit', "{ ttl: '1x' }", 255],
    ['a dns ttl with a space', "{ ttl: ' 1m' }", 255],
    ['a dns ttl with negative hours after days', "{ ttl: '1d-2h' }", 255],
    ['a dns ttl as a number', '{ ttl: 5 }', 104],
    ['a dns ttl as a boolean', '{ ttl: true }', 104],
    ['a dns ttl as a list', '{ ttl: [] }', 104],
    ['an unknown dns select', "{ select: 'bogus' }", 104],
    ['a dns select in the wrong case', "{ select: 'First' }", 104],
    ['an unknown dns policy', "{ policy: 'bogus' }", 104],
    ['a dns select as a number', '{ select: 1 }', 104],
    ['a dns select as an object', '{ select: {} }', 104],
    ['a dns policy as a boolean', '{ policy: true }', 104],
    ['dns as a string', "'ttl=1m'", 104],
    ['dns as a list', '[]', 104],
    ['a bad dns select before a bad ttl', "{ select: 'bogus', ttl: 'abc' }", 104],
    ['a bad dns policy before a bad ttl', "{ ttl: 'abc', policy: 'x' }", 104],
  ] as const
).map(([name, dns, status]) => ({ name, options: `{ dns: ${dns} }`, status }));

/**
 * --dns and K6_DNS in k6's text form: a flag it cannot read is a plain error (255), K6_DNS
 * envconfig's (104), read after the script's options and the flag; the merged ttl is checked after
 * the validation (255). [what, the script's options, --dns, K6_DNS, exit code]
 */
const DNS_TEXT_LAYOUTS: Layout[] = (
  [
    ['--dns with an unreadable ttl', '{}', 'ttl=abc', undefined, 255],
    ['--dns with an unknown select', '{}', 'select=bogus', undefined, 255],
    ['--dns with an unknown policy', '{}', 'policy=bogus', undefined, 255],
    ['--dns with an unknown field', '{}', 'foo=1', undefined, 255],
    ['--dns with a key alone', '{}', 'ttl', undefined, 255],
    ['--dns with an empty value', '{}', 'select=first,ttl=', undefined, 255],
    ['K6_DNS with an unknown select', '{}', undefined, 'select=bogus', 104],
    ['K6_DNS with an unknown field', '{}', undefined, 'foo=1', 104],
    ['an empty K6_DNS', '{}', undefined, '', 104],
    ['K6_DNS with an unreadable ttl', '{}', undefined, 'ttl=-1s', 255],
    ['K6_DNS refused though --dns sets the same field', '{}', 'select=first', 'select=bogus', 104],
    ['--dns refused before K6_DNS', '{}', 'select=bogus2', 'select=bogus', 255],
    ['--dns refused before K6_VUS', '{}', 'foo=1', undefined, 255, { K6_VUS: 'x' }],
    ['the script refused before --dns', "{ dns: { select: 'bogus' } }", 'select=bogus2', undefined, 104],
    ['--dns refused before the validation', "{ vus: -1, duration: '1s' }", 'foo=1', undefined, 255],
    ['the validation before the --dns ttl', "{ vus: -1, duration: '1s' }", 'ttl=abc', undefined, 104],
    ["--dns's ttl over the script's", "{ dns: { ttl: '1m' } }", 'ttl=-5', undefined, 255],
  ] as const
).map(
  ([name, options, flag, envDns, status, env]: readonly [
    string,
    string,
    string | undefined,
    string | undefined,
    number,
    Record<string, string>?,
  ]) => ({
    name,
    options,
    flags: flag === undefined ? undefined : ['--dns', flag],
    env: { ...env, ...(envDns === undefined ? {} : { K6_DNS: envDns }) },
    status,
  }),
);

const CV = "executor: 'constant-vus', vus: 1, duration: '1s'";
const LAYOUTS: Layout[] = [
  // The brief's six.
  { name: 'a scenario without executor', options: '{ scenarios: { a: {} } }', status: 104 },
  { name: 'an unknown executor', options: "{ scenarios: { a: { executor: 'nope' } } }", status: 104 },
  { name: 'a number as executor', options: '{ scenarios: { a: { executor: 123 } } }', status: 104 },
  { name: 'a scenario name with a space', options: `{ scenarios: { 'a b': { ${CV} } } }`, status: 104 },
  { name: 'an empty exec', options: `{ scenarios: { a: { ${CV}, exec: '' } } }`, status: 104 },
  {
    name: 'a bad scenario duration',
    options: "{ scenarios: { a: { executor: 'constant-vus', vus: 1, duration: 'xx' } } }",
    status: 104,
  },
  // Decoding: Go's json type errors and k6's own parsers.
  { name: 'vus as a word', options: "{ vus: 'x' }", status: 104 },
  { name: 'vus as a fraction', options: '{ vus: 1.5 }', status: 104 },
  { name: 'iterations as a word', options: "{ iterations: 'x' }", status: 104 },
  { name: 'a bad top-level duration', options: "{ duration: 'xx' }", status: 104 },
  { name: 'stages as an object', options: '{ stages: { a: 1 } }', status: 104 },
  { name: 'a stage target as a word', options: "{ stages: [{ duration: '1s', target: 'x' }] }", status: 104 },
  {
    name: 'a stage target as a fraction',
    options: "{ stages: [{ duration: '1s', target: 1.5 }] }",
    status: 104,
  },
  { name: 'a bad stage duration', options: "{ stages: [{ duration: 'zz', target: 1 }] }", status: 104 },
  { name: 'a duration in an unknown unit', options: "{ duration: '5x' }", status: 104 },
  { name: "an unknown unit after k6's days", options: "{ duration: '1d5x' }", status: 104 },
  { name: 'scenarios as a list', options: '{ scenarios: [1] }', status: 104 },
  { name: 'scenarios as a string', options: "{ scenarios: 'x' }", status: 104 },
  {
    name: 'a number among scenario env',
    options: `{ scenarios: { a: { ${CV}, env: { A: 1 } } } }`,
    status: 104,
  },
  {
    name: 'a scenario vus as a fraction',
    options: "{ scenarios: { a: { executor: 'constant-vus', vus: 1.5, duration: '1s' } } }",
    status: 104,
  },
  { name: 'an unknown scenario field', options: `{ scenarios: { a: { ${CV}, foo: 1 } } }`, status: 104 },
  { name: 'a bad gracefulStop', options: `{ scenarios: { a: { ${CV}, gracefulStop: 'x' } } }`, status: 104 },
  { name: 'tags as a list', options: "{ tags: ['a'] }", status: 104 },
  { name: 'a number among tags', options: '{ tags: { a: 1 } }', status: 104 },
  { name: 'systemTags as a string', options: "{ systemTags: 'x' }", status: 104 },
  { name: 'summaryTrendStats as a number', options: '{ summaryTrendStats: 5 }', status: 104 },
  { name: 'thresholds as a list', options: "{ thresholds: ['x'] }", status: 104 },
  { name: 'a threshold as a number', options: '{ thresholds: { http_req_duration: 5 } }', status: 104 },
  { name: 'a threshold as a string', options: "{ thresholds: { m: 'x' } }", status: 104 },
  { name: 'a bad setupTimeout', options: "{ setupTimeout: 'x' }", status: 104 },
  // Validation, several problems at once.
  {
    name: 'three bad scenarios',
    options:
      "{ scenarios: { a: { executor: 'constant-vus', vus: 0, duration: '0s' }, b: { executor: 'shared-iterations', vus: 2, iterations: 1 }, c: { executor: 'constant-arrival-rate', rate: 0, duration: '1s', preAllocatedVUs: 0 } } }",
    status: 104,
  },
  {
    name: 'bad stages of ramping-vus',
    options:
      "{ scenarios: { a: { executor: 'ramping-vus', stages: [{ target: -1 }, { duration: '-1s', target: 1 }] } } }",
    status: 104,
  },
  {
    name: 'an arrival rate without rate and VUs',
    options: "{ scenarios: { a: { executor: 'constant-arrival-rate', duration: '1s' } } }",
    status: 104,
  },
  {
    name: 'negative start, stop and a short maxDuration',
    options:
      "{ scenarios: { a: { executor: 'per-vu-iterations', startTime: '-1s', gracefulStop: '-2s', maxDuration: '10ms' } } }",
    status: 104,
  },
  {
    name: 'negative startVUs and no target',
    options:
      "{ scenarios: { a: { executor: 'ramping-vus', startVUs: -1, stages: [{ duration: '1s', target: 0 }] } } }",
    status: 104,
  },
  {
    name: 'maxVUs below preAllocatedVUs',
    options:
      "{ scenarios: { a: { executor: 'ramping-arrival-rate', stages: [{ duration: '1s', target: 1 }], preAllocatedVUs: 1, maxVUs: 0 } } }",
    status: 104,
  },
  { name: 'an empty scenario name', options: `{ scenarios: { '': { ${CV} } } }`, status: 104 },
  {
    name: 'a scenario and a missing exec',
    options: `{ scenarios: { a: { ${CV}, exec: 'nope', vus: 0 } } }`,
    status: 104,
  },
  { name: 'a negative setupTimeout', options: "{ setupTimeout: '-1s' }", status: 104 },
  { name: 'a duration in milliseconds', options: '{ duration: 5 }', status: 104 },
  { name: 'a duration as a numeric string (milliseconds)', options: "{ duration: '5' }", status: 104 },
  { name: 'a zero duration', options: "{ duration: '0s' }", status: 104 },
  // Go's time.ParseDuration reads a number without digits before or after its point, and a sign.
  { name: 'a duration without digits before its point', options: "{ duration: '.5s' }", status: 104 },
  { name: 'a signed duration without a leading digit', options: "{ duration: '+.5s' }", status: 104 },
  { name: 'a zero duration with a bare point', options: "{ duration: '0.s' }", status: 104 },
  { name: 'a bare point as a duration', options: "{ duration: '.s' }", status: 104 },
  { name: 'a duration in the micro sign', options: "{ duration: '500000\u03bcs' }", status: 104 },
  { name: 'an unknown unit of a non-ASCII sign', options: "{ duration: '1\u00b5' }", status: 104 },
  // k6's days (types.ParseExtendedDuration): whole days only, Go reads what follows.
  { name: 'days after a fraction', options: "{ duration: '1.5d' }", status: 104 },
  { name: 'days with nothing before them', options: "{ duration: 'd5s' }", status: 104 },
  { name: 'a point after the days', options: "{ duration: '0d.5s' }", status: 104 },
  { name: 'negative hours after the days', options: "{ duration: '1d-2h' }", status: 104 },
  { name: 'a word after the days', options: "{ duration: '1dx' }", status: 104 },
  { name: 'negative days', options: "{ duration: '-1d2h' }", status: 104 },
  { name: 'empty scenarios and vus (warnings)', options: '{ scenarios: {}, vus: 3 }', status: 0 },
  {
    name: 'a --stage without target',
    options: '{}',
    flags: ['--stage', '1s:1', '--stage', '1s'],
    status: 104,
  },
  { name: 'negative vus with a duration', options: "{ vus: -1, duration: '1s' }", status: 104 },
  // Shortcuts that conflict.
  {
    name: 'duration and stages',
    options: "{ duration: '1s', stages: [{ duration: '1s', target: 1 }] }",
    status: 104,
  },
  {
    name: 'iterations and stages',
    options: "{ iterations: 3, stages: [{ duration: '1s', target: 1 }] }",
    status: 104,
  },
  { name: 'duration and scenarios', options: `{ duration: '1s', scenarios: { a: { ${CV} } } }`, status: 104 },
  ...DNS_LAYOUTS,
  ...DNS_TEXT_LAYOUTS,
  // Trend stats (k6 gives them no exit code of its own).
  { name: 'a bad percentile', options: "{ summaryTrendStats: ['p(x)'] }", status: 255 },
  // Flags and the environment.
  { name: 'a bad --stage target', options: '{}', flags: ['--stage', '1s:x'], status: 255 },
  { name: 'a bad --stage duration', options: '{}', flags: ['--stage', 'xx:1'], status: 255 },
  { name: '-d xx', options: '{}', flags: ['-d', 'xx'], status: 255 },
  { name: '-d without unit', options: '{}', flags: ['-d', '5'], status: 255 },
  { name: '-d in days (not a Go unit)', options: '{}', flags: ['-d', '1d'], status: 255 },
  { name: '-i 0', options: '{}', flags: ['-i', '0'], status: 104 },
  { name: 'more VUs than iterations', options: '{}', flags: ['-i', '1', '--vus', '2'], status: 104 },
  { name: '--vus 0 with a duration', options: '{}', flags: ['--vus', '0', '-d', '1s'], status: 104 },
  { name: '--vus -1 alone (a warning)', options: '{}', flags: ['--vus', '-1'], status: 0 },
  { name: 'K6_VUS=x', options: '{}', env: { K6_VUS: 'x' }, status: 104 },
  { name: 'K6_DURATION=xx', options: '{}', env: { K6_DURATION: 'xx' }, status: 104 },
  { name: 'K6_ITERATIONS=-1', options: '{}', env: { K6_ITERATIONS: '-1' }, status: 104 },
  { name: 'K6_STAGES without target', options: '{}', env: { K6_STAGES: '1s' }, status: 104 },
  {
    name: 'K6_VUS=-2 with K6_DURATION',
    options: '{}',
    env: { K6_VUS: '-2', K6_DURATION: '1s' },
    status: 104,
  },
  // Runtime options' booleans: Go's strconv.ParseBool, before the script runs (a plain error).
  { name: 'K6_NO_THRESHOLDS=yes', options: '{}', env: { K6_NO_THRESHOLDS: 'yes' }, status: 255 },
  { name: 'an empty K6_NO_SUMMARY', options: '{}', env: { K6_NO_SUMMARY: '' }, status: 255 },
  {
    name: 'K6_NO_THRESHOLDS=1 (true)',
    options: THRESHOLD_CROSSED,
    env: { K6_NO_THRESHOLDS: '1' },
    status: 0,
  },
  {
    name: 'K6_NO_THRESHOLDS=F (false)',
    options: THRESHOLD_CROSSED,
    env: { K6_NO_THRESHOLDS: 'F' },
    status: 99,
  },
  // The options' booleans: envconfig's null.Bool takes only true and false.
  { name: 'K6_NO_SETUP=1', options: '{}', env: { K6_NO_SETUP: '1' }, status: 104 },
  { name: 'K6_NO_TEARDOWN=True', options: '{}', env: { K6_NO_TEARDOWN: 'True' }, status: 104 },
  { name: 'K6_NO_SETUP=null (unset)', options: '{}', env: { K6_NO_SETUP: 'null' }, status: 0 },
];

/**
 * k6 walks its scenarios as a Go map, in an order that changes from run to run: the problems after
 * the title are compared as a set, each with its own words.
 */
function unordered(line: string): string {
  const quoted = line.endsWith('"');
  const [title, ...problems] = (quoted ? line.slice(0, -1) : line).split('\\n\\t- ');
  return [title, ...problems.sort()].join('\\n\\t- ') + (quoted ? '"' : '');
}

/** The jobs run in `width` lanes, each job after the one before it in its lane (failed or not). */
function inLanes<T>(jobs: (() => Promise<T>)[], width: number): Promise<T>[] {
  const lanes: Promise<unknown>[] = Array.from({ length: width }, () => Promise.resolve());
  return jobs.map((job, i) => {
    const run = lanes[i % width]!.then(job);
    lanes[i % width] = run.catch(() => {});
    return run;
  });
}

describe('option errors worded as k6 v1.3 words them (side by side)', function () {
  this.timeout(120_000);
  let dir: string;
  /** Each layout's lines on k6 and on the runner: the runs start in before(), two at a time. */
  let runs: Promise<{ k6: string[]; runner: string[] }>[] = [];
  before(function () {
    dir = mkdtempSync(join(tmpdir(), 'loadlab-option-errors-'));
    const k6 = realK6();
    if (!k6) return;
    const jobs = LAYOUTS.map((layout, i) => async () => {
      const script = join(dir, `o${i}.js`);
      writeFileSync(script, `export const options = ${layout.options};\nexport default function () {}\n`);
      const lines = async (command: string[]) =>
        (await logLinesAsync(command, script, layout.flags, layout.status, layout.env)).map(unordered);
      return { k6: await lines([k6]), runner: await lines(RUNNER) };
    });
    runs = inLanes(jobs, 2);
    // A failed run fails its own test; until then it must not count as unhandled.
    for (const run of runs) run.catch(() => {});
  });
  after(async () => {
    await Promise.allSettled(runs);
    rmSync(dir, { recursive: true, force: true });
  });

  LAYOUTS.forEach((layout, i) => {
    it(`${layout.name}: k6's lines and exit code ${layout.status}`, async function () {
      realK6OrSkip(this);
      const { k6, runner } = await runs[i]!;
      // A run that succeeds may log nothing: its exit code is then what is compared (logLinesAsync).
      assert.ok(k6.length >= 1 || layout.status === 0, `k6 logged nothing for ${layout.options}`);
      assert.deepEqual(runner, k6);
    });
  });
});
