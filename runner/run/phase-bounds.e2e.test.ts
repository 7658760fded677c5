// The run's phases end as k6's do: setup and teardown bounded by
// setupTimeout/teardownTimeout (exit 100/101 at the bound, k6's line and hint), a signal during setup
// ending the run at once (105, no teardown), a throw in setup still writing the summary, and k6's
// lines for the first and the second signal. Each case runs on real k6 and on the runner.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runLoadlab, type RunOptions } from '../../devkit/loadlab-run.js';
import { consoleLinesOf, realK6OrSkip } from '../testing/log-lines.js';
import { VU_HOSTS } from '../testing/vu-isolates.js';

/** What a run decided, engine-neutral: exit code, k6's log lines, which phases ran, the summary. */
interface Ending {
  code: number | null;
  /** The signal that ended the process (a crash at exit shows here), null as k6 ends. */
  signal: NodeJS.Signals | null;
  /** Log lines without their time; a script's location without k6's bytecode offset. */
  lines: string[];
  summaryPrinted: boolean;
  summaryExported: boolean;
  seconds: number;
}

const HEAD = `import { sleep } from 'k6';\n`;

async function endingOf(
  engine: 'k6' | 'node',
  script: string,
  opts: Pick<RunOptions, 'signalsAfter' | 'env'> = {},
): Promise<Ending> {
  const dir = mkdtempSync(join(tmpdir(), 'loadlab-phases-'));
  try {
    writeFileSync(join(dir, 'script.js'), HEAD + script);
    const started = Date.now();
    const run = await runLoadlab(['--summary-export', 'export.json', 'script.js'], {
      engine,
      cwd: dir,
      timeoutMs: 60_000,
      ...opts,
    });
    return {
      code: run.code,
      signal: run.signal,
      lines: run.stderr
        .split('\n')
        .filter((l) => l.startsWith('time='))
        .map((l) =>
          l
            .replace(/^time="[^"]*" /, '')
            .replace(/(:\d+:\d+)\(\d+\)/g, '$1')
            .replaceAll(dir, 'DIR'),
        ),
      summaryPrinted: run.stdout.includes('TOTAL RESULTS'),
      summaryExported: existsSync(join(dir, 'export.json')),
      seconds: (Date.now() - started) / 1000,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * A signal during setup races in k6 itself: the signal cancels the sleep, and about one run in ten
 * the rest of setup() and then teardown() still log before the abort lands ('setup end',
 * 'teardown'). The runner ends at the signal, as k6's other runs do: those lines are k6's race.
 * setupTimeout and teardownTimeout race alike: a CI run saw k6 log 'setup end' at the 2 s bound of
 * a setup() sleeping 10 s.
 */
const K6_SETUP_RACE = ['level=info msg="setup end" source=console', 'level=info msg=teardown source=console'];
const K6_TEARDOWN_RACE = ['level=info msg="teardown end" source=console'];

async function sideBySide(
  ctx: Mocha.Context,
  script: string,
  opts: Pick<RunOptions, 'signalsAfter'> & { k6Race?: string[] } = {},
): Promise<{ k6: Ending; runner: Ending }> {
  realK6OrSkip(ctx);
  const k6 = await endingOf('k6', script, opts);
  const runner = await endingOf('node', script, opts);
  const race = opts.k6Race ?? [];
  const decided = (e: Ending) => ({ ...e, seconds: undefined });
  const k6Decided = { ...decided(k6), lines: k6.lines.filter((l) => !race.includes(l)) };
  assert.deepEqual(decided(runner), k6Decided, `k6 took ${k6.seconds} s, the runner ${runner.seconds} s`);
  return { k6, runner };
}

const LONG_SETUP = `
export const options = { setupTimeout: '2s', vus: 1, iterations: 1 };
export function setup() { console.log('setup start'); sleep(10); console.log('setup end'); }
export default function () { console.log('iteration'); }
export function teardown() { console.log('teardown'); }
`;

describe('runner/run phases: timeouts and signals as k6 v1.3 ends them', function () {
  this.timeout(120_000);

  it('setupTimeout: exit 100 at the bound, k6 line and hint, no iteration or teardown, the summary written', async function () {
    const { k6, runner } = await sideBySide(this, LONG_SETUP, { k6Race: K6_SETUP_RACE });
    assert.equal(k6.code, 100);
    assert.ok(
      k6.lines.includes(
        'level=error msg="setup() execution timed out after 2 seconds" hint="You can increase the time limit via the setupTimeout option"',
      ),
      k6.lines.join('\n'),
    );
    assert.ok(runner.seconds < 9, `the runner ended after ${runner.seconds} s, setup sleeps 10 s`);
  });

  it('teardownTimeout: exit 101 at the bound, k6 line and hint, the summary written', async function () {
    const { k6, runner } = await sideBySide(
      this,
      `
export const options = { teardownTimeout: '2s', vus: 1, iterations: 1 };
export default function () {}
export function teardown() { console.log('teardown start'); sleep(10); console.log('teardown end'); }
`,
      { k6Race: K6_TEARDOWN_RACE },
    );
    assert.equal(k6.code, 101);
    assert.ok(runner.seconds < 9, `the runner ended after ${runner.seconds} s, teardown sleeps 10 s`);
  });

  for (const [signal, name] of [
    ['SIGINT', 'interrupt'],
    ['SIGTERM', 'terminated'],
  ] as const) {
    it(`${signal} during setup: exit 105 at once, no teardown, the summary written, k6's '${name}' line`, async function () {
      const { k6, runner } = await sideBySide(this, LONG_SETUP.replace("'2s'", "'60s'"), {
        signalsAfter: { after: 'setup start', signals: [signal] },
        k6Race: K6_SETUP_RACE,
      });
      assert.equal(k6.code, 105);
      assert.ok(
        k6.lines.includes(`level=error msg="test run was aborted because k6 received a '${name}' signal"`),
        k6.lines.join('\n'),
      );
      assert.ok(runner.seconds < 9, `the runner ended after ${runner.seconds} s, setup sleeps 10 s`);
    });
  }

  it('SIGINT mid-run: teardown runs, then k6 line; no line of its own at the signal', async function () {
    const { k6 } = await sideBySide(
      this,
      `
export const options = { vus: 1, duration: '20s' };
export default function () { console.log('iteration'); sleep(5); }
export function teardown() { console.log('teardown'); }
`,
      { signalsAfter: { after: 'iteration', signals: ['SIGINT'] } },
    );
    assert.equal(k6.code, 105);
  });

  it('a second SIGINT during a long teardown: k6 "Aborting k6 in response to signal" line, exit 105, no summary', async function () {
    const { k6, runner } = await sideBySide(
      this,
      `
export const options = { vus: 1, iterations: 1 };
export default function () {}
export function teardown() { console.log('teardown start'); sleep(10); console.log('teardown end'); }
`,
      { signalsAfter: { after: 'teardown start', signals: ['SIGINT', 'SIGINT'] } },
    );
    assert.equal(k6.code, 105);
    assert.equal(k6.summaryPrinted, false);
    assert.ok(runner.seconds < 9, `the runner ended after ${runner.seconds} s, teardown sleeps 10 s`);
  });

  it('a throw in setup: exit 107, k6 line, no iteration or teardown, the summary and its export written', async function () {
    const { k6 } = await sideBySide(
      this,
      `
export const options = { vus: 1, iterations: 1 };
export function setup() { throw new Error('boom in setup'); }
export default function () { console.log('iteration'); }
export function teardown() { console.log('teardown'); }
`,
    );
    assert.equal(k6.code, 107);
    assert.equal(k6.summaryExported, true);
  });

  for (const [result, what] of [
    ['return 42;', "k6's refusal, and nothing written, not even the export"],
    ['return null;', "k6's own summary"],
    ["throw new Error('boom in summary');", 'the exception with its hint, then k6 summary'],
  ] as const) {
    it(`handleSummary() that does ${result}: ${what}`, async function () {
      const { k6 } = await sideBySide(
        this,
        `
export const options = { vus: 1, iterations: 1 };
export default function () {}
export function handleSummary(data) { ${result} }
`,
      );
      assert.equal(k6.code, 0);
    });
  }

  for (const [name, script, code] of [
    ['a syntax error', 'export default function () { let x = ; }', 255],
    [
      'exec.test.abort() in init',
      "import exec from 'k6/execution';\nexec.test.abort('stop in init');\nexport default function () {}",
      108,
    ],
    [
      'exec.test.abort() in setup',
      "import exec from 'k6/execution';\nexport const options = { vus: 1, iterations: 1 };\nexport function setup() { exec.test.abort('stop in setup'); }\nexport default function () { console.log('iteration'); }\nexport function teardown() { console.log('teardown'); }",
      108,
    ],
  ] as const) {
    it(`${name}: exit ${code} and k6's lines`, async function () {
      const { k6 } = await sideBySide(this, script);
      assert.equal(k6.code, code);
    });
  }

  it('SIGTERM while VUs are busy in their init code: exit 105 at once, no teardown, the summary written', async function () {
    const { k6, runner } = await sideBySide(
      this,
      `
export const options = { vus: 2, duration: '10s' };
// Busy for 20 s at most (bounded): only a signal ends this init sooner.
if (__VU > 0) { console.log('init loop'); const t = Date.now(); while (Date.now() - t < 20000) {} }
export default function () {}
export function teardown() { console.log('teardown'); }
`,
      // 2 s in: k6 has emitted its first vus_max by then (with no sample at all its summary fails).
      { signalsAfter: { after: 'init loop', signals: ['SIGTERM'], delayMs: 2000 } },
    );
    assert.equal(k6.code, 105);
    assert.ok(runner.seconds < 15, `the runner ended after ${runner.seconds} s, init is busy for 20 s`);
  });
});

/** JavaScript that never calls k6 for 20 s (bounded): nothing but the VU's end stops it sooner. */
const BUSY = 'const t = Date.now(); while (Date.now() - t < 20000) {}';

const BUSY_SETUP = `
export const options = { setupTimeout: '2s', vus: 1, iterations: 1 };
export function setup() { console.log('setup start'); ${BUSY} console.log('setup end'); }
export default function () { console.log('iteration'); }
export function teardown() { console.log('teardown'); }
`;

const BUSY_TEARDOWN = `
export const options = { teardownTimeout: '2s', vus: 1, iterations: 1 };
export default function () {}
export function teardown() { console.log('teardown start'); ${BUSY} console.log('teardown end'); }
`;

/** A case: its name, the script, when to signal, and k6's exit code. */
type BusyCase = [string, string, Pick<RunOptions, 'signalsAfter'>, number];

describe('runner/run phases: a VU busy in setup or teardown ends as k6 ends it, on both VU hosts', function () {
  this.timeout(180_000);

  const cases: BusyCase[] = [
    ['setup busy past setupTimeout: exit 100 at the bound', BUSY_SETUP, {}, 100],
    ['teardown busy past teardownTimeout: exit 101 at the bound', BUSY_TEARDOWN, {}, 101],
    [
      'SIGTERM while setup is busy: exit 105 at once, no teardown',
      BUSY_SETUP.replace("'2s'", "'60s'"),
      { signalsAfter: { after: 'setup start', signals: ['SIGTERM'] } },
      105,
    ],
    [
      'a second SIGINT while teardown is busy: exit 105 at once, no summary',
      BUSY_TEARDOWN.replace("'2s'", "'60s'"),
      { signalsAfter: { after: 'teardown start', signals: ['SIGINT', 'SIGINT'] } },
      105,
    ],
  ];
  for (const [name, script, opts, code] of cases) {
    it(name, async function () {
      realK6OrSkip(this);
      const k6 = await endingOf('k6', script, opts);
      assert.equal(k6.code, code, k6.lines.join('\n'));
      for (const [host, env] of VU_HOSTS) {
        const runner = await endingOf('node', script, { ...opts, env });
        assert.deepEqual(
          { ...runner, seconds: undefined },
          { ...k6, seconds: undefined },
          `on ${host}: k6 took ${k6.seconds} s, the runner ${runner.seconds} s`,
        );
        // The busy VU ended at the bound or the signal, not when its 20 s were up.
        assert.ok(runner.seconds < 12, `on ${host} the runner ended after ${runner.seconds} s`);
      }
    });
  }
});

describe("runner/run phases: the test run's duration starts after the VUs' init, as k6's does", function () {
  this.timeout(60_000);
  /** Each VU but VU 0 (which reads the options) spends at least this long in its init code. */
  const INIT_MS = 1500;
  const SCRIPT = `if (__VU > 0) { const t = Date.now(); while (Date.now() - t < ${INIT_MS}) {} }
export const options = { vus: 4, iterations: 4 };
export default function () {}
export function handleSummary(d) {
  return { stdout: JSON.stringify({ ms: d.state.testRunDurationMs, iterations: d.metrics.iterations.values.count }) + '\\n' };
}`;

  /** The summary's duration and the last progress line's, in ms. */
  async function durationsOf(engine: 'k6' | 'node') {
    const dir = mkdtempSync(join(tmpdir(), 'loadlab-duration-'));
    try {
      writeFileSync(join(dir, 'script.js'), SCRIPT);
      const run = await runLoadlab(['script.js'], { engine, cwd: dir, timeoutMs: 50_000 });
      assert.equal(run.code, 0, run.stderr);
      const lines = run.stdout.trim().split('\n');
      const summary = JSON.parse(lines.find((l) => l.startsWith('{'))!) as { ms: number; iterations: number };
      const progress = /^running \((\d+)m(\d+\.\d)s\)/.exec(
        lines.findLast((l) => l.startsWith('running (')) ?? '',
      );
      assert.ok(progress, run.stdout);
      return { ...summary, progressMs: (Number(progress[1]) * 60 + Number(progress[2])) * 1000 };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }

  it(`VUs ${INIT_MS} ms in their init: the summary's testRunDurationMs and the progress line leave it out`, async function () {
    realK6OrSkip(this);
    for (const engine of ['k6', 'node'] as const) {
      const d = await durationsOf(engine);
      assert.equal(d.iterations, 4, engine);
      // Four empty iterations take milliseconds; the init took at least INIT_MS before them.
      assert.ok(d.ms < INIT_MS / 2 && d.progressMs < INIT_MS / 2, `${engine}: ${JSON.stringify(d)}`);
    }
  });
});

describe('runner/run phases: setup, teardown and handleSummary each run on a VU 0 of its own, as in k6 v1.3', function () {
  this.timeout(120_000);
  // Each phase's VU runs the init code again: what setup left in a global, teardown does not see.
  const SCRIPT = `let seen = 'init';
console.log('init ' + __VU + ' saw ' + seen);
export const options = { vus: 1, iterations: 1 };
export function setup() { console.log('setup saw ' + seen); seen = 'setup'; }
export default function () { console.log('iteration saw ' + seen); seen = 'iteration'; }
export function teardown() { console.log('teardown saw ' + seen); seen = 'teardown'; }
export function handleSummary() { console.log('handleSummary saw ' + seen); return {}; }
`;

  const consoleOf = (
    engine: 'k6' | 'node',
    script: string,
    env: NodeJS.ProcessEnv = {},
    flags: string[] = [],
  ) => consoleLinesOf(engine, script, { env, flags });

  it('the init code runs once more for each phase the script has, and no phase sees what the last one left', async function () {
    realK6OrSkip(this);
    const k6 = await consoleOf('k6', SCRIPT);
    assert.deepEqual(k6, [
      'init 0 saw init',
      'init 1 saw init',
      'init 0 saw init',
      'setup saw init',
      'iteration saw init',
      'init 0 saw init',
      'teardown saw init',
      'init 0 saw init',
      'handleSummary saw init',
    ]);
    for (const [host, env] of VU_HOSTS)
      assert.deepEqual(await consoleOf('node', SCRIPT, env), k6, `on ${host}`);
  });

  /** No setup or teardown to run: no VU for them; handleSummary still gets one. */
  const WITHOUT_SETUP_OR_TEARDOWN = [
    'init 0 saw init',
    'init 1 saw init',
    'iteration saw init',
    'init 0 saw init',
    'handleSummary saw init',
  ];
  const cases: [string, string, NodeJS.ProcessEnv, string[]][] = [
    ['--no-setup and K6_NO_TEARDOWN=true: neither runs', SCRIPT, { K6_NO_TEARDOWN: 'true' }, ['--no-setup']],
    [
      'a script without setup or teardown',
      SCRIPT.replace(/^export function (setup|teardown).*\n/gm, ''),
      {},
      [],
    ],
  ];
  for (const [name, script, extraEnv, flags] of cases) {
    it(`${name}: no VU for them; handleSummary still gets one`, async function () {
      realK6OrSkip(this);
      const k6 = await consoleOf('k6', script, extraEnv, flags);
      assert.deepEqual(k6, WITHOUT_SETUP_OR_TEARDOWN);
      for (const [host, env] of VU_HOSTS)
        assert.deepEqual(await consoleOf('node', script, { ...env, ...extraEnv }, flags), k6, `on ${host}`);
    });
  }
});
