// A VU busy in JavaScript (`while (true) {}`) never reaches a sleep or a request, where the runner's
// interrupt is noticed. k6 stops it all the same at the end of gracefulStop or on Ctrl-C, counts the
// iteration as interrupted, runs teardown and the summary, and exits with its code. So must the runner;
// where the real k6 is beside the clone, the same script runs on it for the same assertions.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { realK6 } from '../../devkit/real-k6.js';
import { runCommand } from '../../devkit/command.js';
import { REPO } from '../../devkit/loadlab-run.js';

/** VU 1's third iteration spins forever; the other VU keeps iterating. */
function busyScript(scenario: string): string {
  return [
    "import exec from 'k6/execution';",
    `export const options = { scenarios: { s: ${scenario} } };`,
    'export default function () {',
    '  if (exec.vu.idInTest === 1 && exec.vu.iterationInScenario === 2) { while (true) {} }',
    '}',
    "export function teardown() { console.log('teardown ran'); }",
  ].join('\n');
}

interface Finished {
  code: number | null;
  ms: number;
  output: string;
}

/**
 * Runs `run --summary-mode=compact <script>`, with a Ctrl-C `interruptAfterMs` after the first progress
 * line when asked; SIGKILL after 40 s stands for a run that never ends.
 */
async function run(command: string[], script: string, interruptAfterMs?: number): Promise<Finished> {
  const started = Date.now();
  let interruptedAt = started;
  let interrupt: NodeJS.Timeout | undefined;
  const { code, output } = await runCommand(
    command[0]!,
    [...command.slice(1), 'run', '--summary-mode=compact', script],
    {
      cwd: REPO,
      env: { HOME: process.env.HOME ?? '/tmp' },
      timeoutMs: 40_000,
      // k6 prints its progress on stdout when that is not a TTY, the runner on stderr: both are read.
      onOutput: (proc) => {
        // Timed from the first progress line (the run has started), not from spawn: a loaded machine
        // can take seconds to get there, and a SIGINT before the handlers exist kills the process.
        if (interruptAfterMs !== undefined && !interrupt && proc.output().includes('running ('))
          interrupt = setTimeout(() => {
            interruptedAt = Date.now();
            proc.child.kill('SIGINT');
          }, interruptAfterMs);
      },
    },
  );
  clearTimeout(interrupt);
  return { code, ms: Date.now() - (interruptAfterMs === undefined ? started : interruptedAt), output };
}

const interruptedCount = (output: string) =>
  Number([...output.matchAll(/complete and (\d+) interrupted iterations/g)].at(-1)?.[1]);

const engines: [string, () => string[] | undefined][] = [
  ['the runner', () => [process.execPath, 'bin/loadlab.js']],
  ['real k6', () => (realK6() ? [realK6()!] : undefined)],
];

for (const [engine, command] of engines) {
  describe(`a VU busy in JavaScript, on ${engine}`, function () {
    this.timeout(60_000);
    let dir: string;
    before(function () {
      if (!command()) {
        console.warn('      skipped: no real k6 (../shared/tools/k6 or REAL_K6) beside this clone');
        this.skip();
      }
      dir = mkdtempSync(join(tmpdir(), 'loadlab-busy-'));
    });
    after(() => dir && rmSync(dir, { recursive: true, force: true }));

    const cases = [
      {
        title: 'is stopped at the end of gracefulStop: interrupted, teardown runs, exit 0',
        scenario: "{ executor: 'constant-vus', vus: 2, duration: '2s', gracefulStop: '1s' }",
        code: 0,
        interrupted: 1,
      },
      {
        title: 'on an arrival-rate executor too',
        scenario:
          "{ executor: 'constant-arrival-rate', rate: 20, timeUnit: '1s', duration: '2s', preAllocatedVUs: 2, maxVUs: 2, gracefulStop: '1s' }",
        code: 0,
        interrupted: 1,
      },
      {
        title: 'one Ctrl-C stops it (timed from the Ctrl-C): interrupted, teardown runs, exit 105',
        scenario: "{ executor: 'constant-vus', vus: 2, duration: '60s', gracefulStop: '30s' }",
        interruptAfterMs: 2000,
        code: 105,
        // The busy one for sure; the other VU's iteration too when Ctrl-C catches it mid-way.
        interrupted: undefined,
      },
    ];
    cases.forEach(({ title, scenario, interruptAfterMs, code, interrupted }, index) => {
      it(title, async () => {
        const path = join(dir, `busy-${index}.js`);
        writeFileSync(path, busyScript(scenario));
        const done = await run(command()!, path, interruptAfterMs);
        assert.equal(done.code, code, done.output.slice(-2000));
        assert.ok(done.ms < 15_000, `${done.ms} ms`);
        const count = interruptedCount(done.output);
        if (interrupted === undefined) assert.ok(count >= 1, done.output.slice(-2000));
        else assert.equal(count, interrupted, done.output.slice(-2000));
        assert.match(done.output, /teardown ran/);
      });
    });
  });
}
