// The runner's process ends by itself once a run is over: no timer or socket is left to hold it.
// runCommandLine() still exits explicitly if one is (host/process-exit.ts), which hid two such timers:
// the scenario's gracefulStop wait, left running when the VUs ended first, and the deadline of an
// interrupt the VU had obeyed. LOADLAB_DEBUG_EXIT makes that explicit exit say what held it. The
// command line leaves the VUs' sockets to its exit (leaveVusToExit()): there the same setting names any
// timer still pending as it ends the process.
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';

const HEAD = `import http from 'k6/http';\nimport { sleep } from 'k6';\nimport exec from 'k6/execution';\n`;

/** Each shape of a run's end, with the exit code k6 gives it. */
const ENDINGS: { name: string; code: number; script: string }[] = [
  {
    name: 'one iteration of one VU',
    code: 0,
    script: `export const options = { vus: 1, iterations: 1 };
export default function () { http.get(__ENV.TARGET); }`,
  },
  {
    name: 'iterations with setup, teardown and handleSummary',
    code: 0,
    script: `export const options = { vus: 2, iterations: 4 };
export function setup() { return http.get(__ENV.TARGET).status; }
export default function () { http.get(__ENV.TARGET); }
export function teardown() {}
export function handleSummary() { return { stdout: 'summary\\n' }; }`,
  },
  {
    name: 'a duration whose VUs end before gracefulStop',
    code: 0,
    script: `export const options = { vus: 2, duration: '1s' };
export default function () { http.get(__ENV.TARGET); sleep(0.2); }`,
  },
  {
    name: 'VUs interrupted at gracefulStop',
    code: 0,
    script: `export const options = { scenarios: { s: { executor: 'constant-vus', vus: 2, duration: '1s', gracefulStop: '300ms' } } };
export default function () { sleep(3); }`,
  },
  {
    name: 'test.abort()',
    code: 108,
    script: `export const options = { vus: 2, duration: '5s' };
export default function () { sleep(0.1); if (exec.scenario.iterationInTest > 2) exec.test.abort('enough'); }`,
  },
  {
    name: 'a threshold with abortOnFail',
    code: 99,
    script: `export const options = { vus: 2, duration: '5s', thresholds: { checks: [{ threshold: 'rate>0.5', abortOnFail: true }] } };
import { check } from 'k6';
export default function () { check(null, { never: () => false }); sleep(0.1); }`,
  },
];

describe('runner/bin: the process ends by itself after a run', function () {
  this.timeout(120_000);
  let server: Server;
  let target: string;

  before(async function () {
    server = createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    target = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });

  after(function () {
    server.close();
  });

  for (const ending of ENDINGS) {
    it(`${ending.name}: exit ${ending.code}, nothing held the exit`, async function () {
      const dir = mkdtempSync(join(tmpdir(), 'loadlab-exit-'));
      try {
        writeFileSync(join(dir, 'script.js'), HEAD + ending.script);
        const run = await runLoadlab(['-q', 'script.js'], {
          engine: 'node',
          cwd: dir,
          timeoutMs: 60_000,
          env: { ...process.env, TARGET: target, LOADLAB_DEBUG_EXIT: '1' },
        });
        const exitLines = run.stderr.split('\n').filter((line) => line.startsWith('loadlab: the exit'));
        const left = exitLines.filter((line) => / VU resources left to it$/.test(line));
        const held = exitLines.filter((line) => !left.includes(line));
        assert.deepEqual(
          { code: run.code, signal: run.signal, held, leftToExit: left.length },
          { code: ending.code, signal: null, held: [], leftToExit: 1 },
        );
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  }
});
