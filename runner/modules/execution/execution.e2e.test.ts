// k6/execution on real k6 and the runner, on both VU hosts: what each of exec.vu, exec.scenario,
// exec.instance and exec.test.options gives or throws in init, setup, an iteration, teardown and
// handleSummary; and currentTestRunDuration counts from the test's start (setup's), not a VU's init.
import assert from 'node:assert/strict';
import { consoleLinesOf, realK6OrSkip } from '../../testing/log-lines.js';
import { VU_HOSTS } from '../../testing/vu-isolates.js';

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

/** What each phase saw, with the durations as ranges: timing is the machine's, the ranges are the engine's. */
async function phasesOf(engine: 'k6' | 'node', env: NodeJS.ProcessEnv = {}): Promise<string[]> {
  const lines = await consoleOf(engine, SCRIPT, env);
  const asRange = (ms: string) => {
    const n = Number(ms);
    if (Number.isNaN(n)) return ms.replace(/^(Go)?Error: /, '');
    if (n < SETUP_MS / 2) return 'just after the start';
    if (n < INIT_MS) return 'after setup, before an init would have ended';
    return 'counted from an init';
  };
  return lines.map((line) => {
    const [, phase, first, second] = /^(\w+) (.*?)(?: \/ (.*))?$/.exec(line)!;
    return `${phase}: ${asRange(first!)}${second === undefined ? '' : ` / ${asRange(second)}`}`;
  });
}

/** The script's console lines on `engine`. */
const consoleOf = (
  engine: 'k6' | 'node',
  script: string,
  env: NodeJS.ProcessEnv = {},
  flags: string[] = [],
) => consoleLinesOf(engine, script, { env, flags });

/** Every field in every phase: its value, or the error it throws. */
const EVERY_FIELD = `import exec from 'k6/execution';
// k6 lists a VU's tags in Go's map order, which changes from run to run.
const sorted = (tags) => JSON.stringify(Object.fromEntries(Object.entries(tags).sort()));
const fields = {
  'vu.idInInstance': () => exec.vu.idInInstance,
  'vu.idInTest': () => exec.vu.idInTest,
  'vu.iterationInInstance': () => exec.vu.iterationInInstance,
  'vu.iterationInScenario': () => exec.vu.iterationInScenario,
  'vu.tags': () => sorted(exec.vu.tags),
  'vu.metrics.tags': () => sorted(exec.vu.metrics.tags),
  'vu.metrics.metadata': () => JSON.stringify(exec.vu.metrics.metadata),
  'scenario.name': () => exec.scenario.name,
  'scenario.executor': () => exec.scenario.executor,
  'scenario.startTime': () => typeof exec.scenario.startTime,
  'scenario.progress': () => exec.scenario.progress,
  'scenario.iterationInInstance': () => exec.scenario.iterationInInstance,
  'scenario.iterationInTest': () => exec.scenario.iterationInTest,
  'instance.iterationsCompleted': () => exec.instance.iterationsCompleted,
  'instance.iterationsInterrupted': () => exec.instance.iterationsInterrupted,
  'instance.vusActive': () => exec.instance.vusActive,
  'instance.vusInitialized': () => exec.instance.vusInitialized,
  'test.options.vus': () => JSON.stringify(exec.test.options.scenarios.default.vus),
};
function probe(phase) {
  for (const [name, read] of Object.entries(fields)) {
    let value;
    try { value = read(); } catch (e) { value = 'throws ' + String(e).replace(/^(Go)?Error: /, ''); }
    console.log(phase + ' ' + name + ' = ' + value);
  }
}
// VU 0's init runs once per phase in k6, and the setup VU's init has k6's execution state (exec.instance
// answers there, a quirk left alone): VU 1's init is the one probed.
if (__VU === 1) probe('init');
export const options = { vus: 1, iterations: 1 };
export function setup() { probe('setup'); }
export default function () { probe('iteration'); }
export function teardown() { probe('teardown'); }
export function handleSummary() { probe('handleSummary'); return {}; }
`;

/** exec.test.options printed whole by the first iteration of the first scenario listed. */
const OPTIONS_PRINTED = (options: string) => `import exec from 'k6/execution';
export const options = ${options};
let printed = false;
export function printIt() {
  if (printed || exec.scenario.name !== Object.keys(exec.test.options.scenarios)[0]) return;
  printed = true;
  const o = exec.test.options;
  console.log(JSON.stringify(o) + ' frozen=' + Object.isFrozen(o.scenarios) + ' fresh=' + (o !== exec.test.options));
}
export default printIt;
`;

/** [what, the script's options, flags] */
const OPTIONS_LAYOUTS: [string, string, string[]][] = [
  ['no options', '{}', []],
  ['-u 2 -d 1s', '{}', ['-u', '2', '-d', '1s']],
  [
    'iterations',
    '{ iterations: 2, maxRedirects: 3, systemTags: ["url", "status", "bogus"], tags: { a: "b" } }',
    [],
  ],
  ['stages with a start', '{ vus: 3, stages: [{ duration: "1s", target: 2 }] }', []],
  [
    'a scenario of each executor',
    `{ scenarios: {
      a: { executor: 'constant-vus', vus: 1, duration: '1s', exec: 'printIt' },
      b: { executor: 'ramping-vus', stages: [{ duration: '1s', target: 1 }] },
      c: { executor: 'constant-arrival-rate', rate: 1, duration: '1s', preAllocatedVUs: 1 },
      d: { executor: 'ramping-arrival-rate', stages: [{ duration: '1s', target: 1 }], preAllocatedVUs: 1 },
      e: { executor: 'per-vu-iterations', env: { A: '1' }, tags: { t: 'x' }, gracefulStop: '1s' },
      f: { executor: 'shared-iterations', startTime: '0s' },
    }, summaryTrendStats: ['avg', 'p(99)'] }`,
    [],
  ],
];

describe('runner/modules/execution: k6/execution as k6 v1.3 has it', function () {
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
    for (const [host, env] of VU_HOSTS) assert.deepEqual(await phasesOf('node', env), k6, `on ${host}`);
  });

  for (const [what, options, flags] of OPTIONS_LAYOUTS)
    it(`exec.test.options, ${what}: every k6 option in k6's order, null where unset, frozen, a copy at each read`, async function () {
      realK6OrSkip(this);
      // Each VU of the first scenario prints it once: the same line, however many VUs.
      const printed = async (engine: 'k6' | 'node') => [
        ...new Set(await consoleOf(engine, OPTIONS_PRINTED(options), {}, flags)),
      ];
      const k6 = await printed('k6');
      assert.equal(k6.length, 1, k6.join('\n'));
      assert.deepEqual(await printed('node'), k6);
    });

  it('exec.vu, exec.scenario, exec.instance and exec.test.options in every phase: the same values and errors', async function () {
    realK6OrSkip(this);
    const k6 = await consoleOf('k6', EVERY_FIELD);
    assert.equal(k6.length, 5 * 18, k6.join('\n'));
    for (const [host, env] of VU_HOSTS)
      assert.deepEqual(await consoleOf('node', EVERY_FIELD, env), k6, `on ${host}`);
  });
});
