// The VU isolates of isolated-vm (isolate-host.ts, LOADLAB_VU_HOST=isolate) seen from outside: a script run in them sees the global scope k6
// gives it, not Node's, and a VU that runs out of memory loses its isolate only.
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { runCommand } from '../../devkit/command.js';
import { REPO, runLoadlab } from '../../devkit/loadlab-run.js';
import { startProcess } from '../../devkit/script-process.js';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';
import { ISOLATE_HOST_ENV, isolatesOrSkip } from '../testing/vu-isolates.js';
import { buildIsolateCode } from '../vu/isolate-code.js';
import { workerCode } from '../vu/worker-code.js';
import { assertVuLoopsOn, assertVuLostAlone } from '../testing/vu-out-of-memory.js';

const FIXTURES = join(import.meta.dirname, 'fixtures');

/**
 * The threads a process had while it ran, sampled from Linux's /proc/<pid>/task every few
 * milliseconds until it ends (a thread living less than that can be missed). Only the process's own:
 * a machine-wide count also counts what other tests run meanwhile.
 */
async function threadsSeen(pid: number, ended: Promise<unknown>): Promise<number> {
  const seen = new Set<string>();
  let done = false;
  void ended.finally(() => (done = true));
  while (!done) {
    try {
      for (const tid of readdirSync(`/proc/${pid}/task`)) seen.add(tid);
    } catch {
      break; // the process is gone
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  return seen.size;
}

describe('runner/host: VUs in V8 isolates', function () {
  this.timeout(180_000);

  it('fixtures/script-globals.js: the script sees the same global names on both engines, none of Node’s', function () {
    isolatesOrSkip(this);
    const k6 = realK6OrSkip(this);
    const script = join(FIXTURES, 'script-globals.js');
    const ours = logLines(RUNNER, script, [], 0, { ...ISOLATE_HOST_ENV });
    assert.deepEqual(ours, logLines(k6, script));
    assert.ok(
      ours.some((l) => l.includes('Buffer: undefined')),
      ours.join('\n'),
    );
  });

  it('runs in isolates, and in workers when LOADLAB_VU_HOST=worker asks for them (-v names the reason)', async function () {
    isolatesOrSkip(this);
    const script = join(FIXTURES, 'script-globals.js');
    const isolates = await runLoadlab(['-v', '-q', script], { env: ISOLATE_HOST_ENV });
    assert.equal(isolates.code, 0, isolates.stderr);
    assert.doesNotMatch(isolates.stderr, /VUs run in worker threads/);
    const workers = await runLoadlab(['-v', '-q', script], { env: { LOADLAB_VU_HOST: 'worker' } });
    assert.equal(workers.code, 0, workers.stderr);
    assert.match(workers.stderr, /level=debug msg="VUs run in worker threads: LOADLAB_VU_HOST=worker"/);
    // Node's globals leak into a worker's script scope: the isolates are what k6 gives a script.
    assert.match(workers.stderr, /Buffer: function/);
  });

  it('Node started with its startup snapshot (isolated-vm crashes against it): workers, and one warning saying why and what to do', async () => {
    const r = await runCommand(
      process.execPath,
      [`${REPO}bin/loadlab.js`, 'run', '-q', join(FIXTURES, 'script-globals.js')],
      {
        // Not the worker host a test run may ask for (node-lines where no isolated-vm loads): the runner's own choice.
        env: { PATH: process.env.PATH ?? '', LOADLAB_VU_HOST: 'isolate' },
      },
    );
    assert.equal(r.code, 0, r.stderr);
    const warnings = r.stderr.split('\n').filter((l) => l.includes('level=warning'));
    assert.equal(warnings.length, 1, r.stderr);
    assert.match(
      warnings[0]!,
      /VUs run in worker threads: isolated-vm cannot be used on Node v\S+ \(Node was started without --no-node-snapshot\).*npm run loadlab/,
    );
  });

  it('fixtures/out-of-memory.js: a VU past its heap limit loses its iteration with one line; the others and the summary carry on', async function () {
    isolatesOrSkip(this);
    await assertVuLostAlone(ISOLATE_HOST_ENV);
  });

  it('fixtures/out-of-memory-loop.js: a looping VU that runs out of memory iterates on in a fresh isolate', async function () {
    isolatesOrSkip(this);
    await assertVuLoopsOn(ISOLATE_HOST_ENV);
  });

  it('fixtures/arrival-rate-threads.js: an arrival-rate VU takes its iterations on the thread it holds, not on a thread made per iteration', async function () {
    isolatesOrSkip(this);
    if (!existsSync('/proc/self/task')) this.skip(); // not Linux: no list of a process's threads
    const run = startProcess(
      RUNNER[0]!,
      [...RUNNER.slice(1), 'run', '-q', join(FIXTURES, 'arrival-rate-threads.js')],
      {
        cwd: REPO,
        env: ISOLATE_HOST_ENV,
        killAfterMs: 120_000,
      },
    );
    const made = await threadsSeen(run.child.pid!, run.exit);
    assert.equal(await run.closed, 0, run.ending());
    // The summary's own line: `dropped_iterations` comes before it and ends the same way.
    const iterations = Number(/^\s+iterations\.*: (\d+)/m.exec(run.out())?.[1]);
    assert.ok(iterations >= 300, run.out());
    // The run's own threads (Node's, a thread per VU) are a few dozen; a thread made per iteration,
    // as isolated-vm does for a call when its pool is busy, is hundreds.
    assert.ok(made < iterations / 2, `${made} threads seen in the run for ${iterations} iterations`);
  });

  it("an isolate's bundle carries none of the modules only a worker-hosted VU builds; a worker's carries them", async () => {
    const builders = [
      'createGrpcModule',
      'createWsModule',
      'createHtmlModule',
      'createCsvModule',
      'createFsModule',
    ];
    const carried = (code: string) => builders.filter((name) => code.includes(name));
    assert.deepEqual(carried(await buildIsolateCode()), []);
    assert.deepEqual(carried(workerCode()), builders);
  });
});
