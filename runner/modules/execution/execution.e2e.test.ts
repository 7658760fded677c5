// k6/execution's exec.instance on real k6 and the runner, on both VU hosts: currentTestRunDuration
// counts from the test's start (setup's), not from the VU's init, and in teardown and handleSummary
// exec.instance throws, as k6 v1.3 has no execution state there.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab } from '../../../devkit/loadlab-run.js';
import { realK6OrSkip } from '../../testing/log-lines.js';

/** Each scenario VU (not VU 0, which reads the options and runs setup) spends this long in init. */
const INIT_MS = 1000;
/** setup() spends this long before the iterations start. */
const SETUP_MS = 300;

const SCRIPT = `import exec from 'k6/execution';
if (__VU > 0) { const t = Date.now(); while (Date.now() - t < ${INIT_MS}) {} }
export const options = { vus: 2, iterations: 2 };
const duration = () => { try { return Math.round(exec.instance.currentTestRunDuration); } catch (e) { return String(e); } };
const completed = () => { try { return exec.instance.iterationsCompleted; } catch (e) { return String(e); } };
export function setup() {
  console.log('setup ' + duration());
  const t = Date.now(); while (Date.now() - t < ${SETUP_MS}) {}
}
export default function () { console.log('iteration ' + duration()); }
export function teardown() { console.log('teardown ' + duration() + ' / ' + completed()); }
export function handleSummary() { console.log('summary ' + duration()); return {}; }
`;

const HOSTS: [string, NodeJS.ProcessEnv][] = [
  ['isolates', {}],
  ['workers', { LOADLAB_VU_HOST: 'worker' }],
];

/** What each phase saw, with the durations as ranges: timing is the machine's, the ranges are the engine's. */
async function phasesOf(engine: 'k6' | 'node', env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-exec-instance-'));
  try {
    writeFileSync(join(dir, 'script.js'), SCRIPT);
    const run = await runLoadlab(['-q', 'script.js'], { engine, cwd: dir, timeoutMs: 50_000, env });
    assert.equal(run.code, 0, run.stderr);
    const asRange = (ms: string) => {
      const n = Number(ms);
      if (Number.isNaN(n)) return ms.replace(/^(Go)?Error: /, '');
      if (n < SETUP_MS / 2) return 'just after the start';
      if (n < INIT_MS) return 'after setup, before an init would have ended';
      return 'counted from an init';
    };
    return [...run.stderr.matchAll(/msg="(\w+) ([^"]*?)(?: \/ ([^"]*))?"/g)].map(
      ([, phase, first, second]) =>
        `${phase}: ${asRange(first!)}${second === undefined ? '' : ` / ${asRange(second)}`}`,
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe('runner/modules/execution: exec.instance as k6 has it', function () {
  this.timeout(120_000);

  it("currentTestRunDuration from setup's start, not a VU's init; teardown and handleSummary throw", async function () {
    realK6OrSkip(this);
    const k6 = await phasesOf('k6');
    const initContext = 'getting instance information in the init context is not supported';
    assert.deepEqual(k6, [
      'setup: just after the start',
      'iteration: after setup, before an init would have ended',
      'iteration: after setup, before an init would have ended',
      `teardown: ${initContext} / ${initContext}`,
      `summary: ${initContext}`,
    ]);
    for (const [host, env] of HOSTS) assert.deepEqual(await phasesOf('node', env), k6, `on ${host}`);
  });
});
