// The dns option consolidated as k6 consolidates it, field by field: the script's `dns` < K6_DNS <
// --dns, as exec.test.options.dns shows it (k6's DNSConfig: three fields, null where none is set).
// Each case runs on real k6 v1.3 and on the runner.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';

/** [what, the script's dns, --dns, K6_DNS] */
const CASES: [string, string, string | undefined, string | undefined][] = [
  ['none set', 'undefined', undefined, undefined],
  ['the script alone', "{ ttl: '1m', policy: 'any' }", undefined, undefined],
  ['--dns over the script', "{ ttl: '1m', policy: 'any' }", 'ttl=2s', undefined],
  ['--dns over K6_DNS over the script', "{ ttl: '1m', policy: 'any' }", 'ttl=2s', 'select=first,ttl=3s'],
  ["k6's default text sets nothing", "{ ttl: '1m' }", 'ttl=5m,select=random,policy=preferIPv4', undefined],
];

describe('runner/options dns: script < K6_DNS < --dns, as k6 v1.3 consolidates them (side by side)', function () {
  this.timeout(120_000);
  let dir: string;
  before(() => (dir = mkdtempSync(join(tmpdir(), 'loadlab-dns-option-'))));
  after(() => rmSync(dir, { recursive: true, force: true }));

  CASES.forEach(([name, dns, flag, envDns], i) => {
    it(`${name}: exec.test.options.dns as k6's`, function () {
      const k6 = realK6OrSkip(this);
      const script = join(dir, `d${i}.js`);
      writeFileSync(
        script,
        [
          "import exec from 'k6/execution';",
          `export const options = { vus: 1, iterations: 1, dns: ${dns} };`,
          'export default function () { console.log(JSON.stringify(exec.test.options.dns)); }',
        ].join('\n'),
      );
      const flags = flag === undefined ? [] : ['--dns', flag];
      const env: Record<string, string> = envDns === undefined ? {} : { K6_DNS: envDns };
      const expected = logLines(k6, script, flags, 0, env);
      assert.equal(expected.length, 1, expected.join('\n'));
      assert.deepEqual(logLines(RUNNER, script, flags, 0, env), expected);
    });
  });
});
