// `k6 run` flags and K6_* variables that set one of k6's options, each run on real k6 v1.3 and on the
// runner: what exec.test.options shows (the flag over K6_* over the script), what __ENV holds, and
// what the option does (-w makes a refused request throw).
import assert from 'node:assert/strict';
import { consoleLinesOf, realK6OrSkip } from '../testing/log-lines.js';

const SCRIPT = `import http from 'k6/http';
import exec from 'k6/execution';
export const options = { maxRedirects: 7, userAgent: 'from the script', minIterationDuration: 10 };
const shown = ['noSetup', 'noTeardown', 'maxRedirects', 'userAgent', 'insecureSkipTLSVerify', 'throw', 'systemTags', 'discardResponseBodies', 'minIterationDuration'];
export default function () {
  const o = exec.test.options;
  console.log(shown.map((k) => k + '=' + JSON.stringify(o[k])).join(' '));
  console.log('HOME ' + (__ENV.HOME === undefined ? 'hidden' : 'seen') + ', FOO ' + __ENV.FOO);
  try {
    const r = http.get('http://127.0.0.1:1/');
    console.log('answered ' + r.error_code);
  } catch (e) {
    console.log('threw ' + String(e));
  }
}
`;

/** [what, flags, K6_* variables] */
const CASES: [string, string[], Record<string, string>][] = [
  ['no flag, no variable', [], {}],
  [
    'each flag',
    [
      '--no-setup',
      '--no-teardown=true',
      '--max-redirects',
      '3',
      '--user-agent=ua',
      '--insecure-skip-tls-verify',
      '-w',
      '--discard-response-bodies',
      '--min-iteration-duration',
      '20ms',
      '--no-usage-report',
      '--system-tags=status, url',
      '--system-tags',
      'method,bogus',
    ],
    {},
  ],
  [
    'each variable',
    [],
    {
      K6_NO_SETUP: 'true',
      K6_NO_TEARDOWN: 'false',
      K6_MAX_REDIRECTS: '4',
      K6_USER_AGENT: 'env ua',
      K6_INSECURE_SKIP_TLS_VERIFY: 'true',
      K6_THROW: 'true',
      K6_DISCARD_RESPONSE_BODIES: 'false',
      K6_SYSTEM_TAGS: 'status, url',
      K6_MIN_ITERATION_DURATION: '30',
    },
  ],
  ['an empty K6_SYSTEM_TAGS (no system tag)', [], { K6_SYSTEM_TAGS: '' }],
  [
    'flags over variables',
    ['--throw=false', '--max-redirects=5', '--min-iteration-duration=1.5ms'],
    { K6_THROW: 'true', K6_MAX_REDIRECTS: '4', K6_MIN_ITERATION_DURATION: '2ms' },
  ],
  ['--include-system-env-vars=false with -e', ['--include-system-env-vars=false', '-e', 'FOO=bar'], {}],
  ['K6_INCLUDE_SYSTEM_ENV_VARS=false', [], { K6_INCLUDE_SYSTEM_ENV_VARS: 'false' }],
];

const consoleOf = (engine: 'k6' | 'node', flags: string[], env: Record<string, string>) =>
  consoleLinesOf(engine, SCRIPT, { env: { ...process.env, ...env }, flags });

describe('runner/options: the flags and K6_* variables that set options, as k6 v1.3 reads them', function () {
  this.timeout(60_000);
  for (const [what, flags, env] of CASES) {
    it(`${what}: the same options, __ENV and request`, async function () {
      realK6OrSkip(this);
      const k6 = await consoleOf('k6', flags, env);
      assert.equal(k6.length, 3, k6.join('\n'));
      assert.deepEqual(await consoleOf('node', flags, env), k6);
    });
  }
});
