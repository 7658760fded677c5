// The shared-isolate VU host (shared-isolate-host.ts, native/vu_host.cc) seen from outside: scripts see
// k6's global scope in it, async code runs in it with its rejections reported as k6 reports them, a VU
// that computes without a call to the host does not stop the others of its isolate, and one that runs
// out of memory is lost alone. Where the addon cannot be built, the VUs run in workers.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO, runLoadlab } from '../../devkit/loadlab-run.js';
import { startProcess } from '../../devkit/script-process.js';
import { buildIsolateCode } from '../vu/isolate-code.js';
import { workerCode } from '../vu/worker-code.js';
import { logLines, realK6OrSkip, RUNNER } from '../testing/log-lines.js';
import { assertVuLoopsOn, assertVuLostAlone } from '../testing/vu-out-of-memory.js';
import { SHARED_HOST_ENV, VU_HOSTS, WORKER_HOST_ENV } from '../testing/vu-isolates.js';

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

describe('runner/host: VUs sharing V8 isolates (the default host)', function () {
  this.timeout(180_000);

  it('-v names the host and how many VUs share an isolate; a bad LOADLAB_VUS_PER_ISOLATE is one line and no run', async () => {
    const script = join(FIXTURES, 'script-globals.js');
    const r = await runLoadlab(['-v', '-q', script], {
      env: { ...SHARED_HOST_ENV, LOADLAB_VUS_PER_ISOLATE: '4' },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /level=debug msg="VUs share V8 isolates, 4 per isolate"/);
    const bad = await runLoadlab(['-q', script], {
      env: { ...SHARED_HOST_ENV, LOADLAB_VUS_PER_ISOLATE: '0' },
    });
    assert.equal(bad.code, 255, bad.stderr);
    assert.deepEqual(
      bad.stderr.split('\n').filter((l) => l.includes('level=')),
      [
        `time="${/time="([^"]+)"/.exec(bad.stderr)?.[1]}" level=error msg="LOADLAB_VUS_PER_ISOLATE must be a whole number from 1 to 1000, not '0'"`,
      ],
    );
  });

  it('LOADLAB_VU_HOST=worker runs the VUs in workers (-v names the reason), where Node globals leak into the script', async function () {
    const script = join(FIXTURES, 'script-globals.js');
    const shared = await runLoadlab(['-v', '-q', script], { env: SHARED_HOST_ENV });
    assert.equal(shared.code, 0, shared.stderr);
    assert.match(shared.stderr, /Buffer: undefined/);
    const workers = await runLoadlab(['-v', '-q', script], { env: WORKER_HOST_ENV });
    assert.equal(workers.code, 0, workers.stderr);
    assert.match(workers.stderr, /level=debug msg="VUs run in worker threads: LOADLAB_VU_HOST=worker"/);
    assert.match(workers.stderr, /Buffer: function/);
  });

  it('an addon that cannot be built (no working C++ compiler): workers, and one warning saying why and what to do', async function () {
    const cache = mkdtempSync(join(tmpdir(), 'loadlab-no-addon-'));
    try {
      const r = await runLoadlab(['-q', join(FIXTURES, 'script-globals.js')], {
        // An empty build cache, and a compiler that fails: the build node-gyp runs fails as it does
        // on a machine without g++.
        env: { LOADLAB_VU_HOST: '', LOADLAB_NATIVE_CACHE: cache, CXX: 'false' },
        timeoutMs: 120_000,
      });
      assert.equal(r.code, 0, r.stderr);
      const warnings = r.stderr.split('\n').filter((l) => l.includes('level=warning'));
      assert.equal(warnings.length, 1, r.stderr);
      assert.match(
        warnings[0]!,
        /msg="VUs run in worker threads: the runner's VU host addon cannot be used on Node v\S+ \(.+\), so each VU costs a Node worker; scripts\/setup.sh installs the build tools it needs"/,
      );
      assert.match(r.stderr, /Buffer: function/);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  });

  it('fixtures/shared-async.js: async code shares isolates; a rejection is its own VU’s iteration error, as on k6', async function () {
    const k6 = realK6OrSkip(this);
    const script = join(FIXTURES, 'shared-async.js');
    const note = await runLoadlab(['-v', '-q', '--summary-mode=disabled', script]);
    assert.match(note.stderr, /level=debug msg="VUs share V8 isolates, 10 per isolate"/);
    // The VUs end their iterations in whatever order the timers and threads give: compared sorted.
    const expected = logLines(k6, script).sort();
    assert.equal(expected.filter((l) => l.includes('Uncaught (in promise) Error: left by VU 3')).length, 2);
    // The workers run async code too, and end such an iteration alike.
    for (const [host, env] of VU_HOSTS)
      assert.deepEqual(logLines(RUNNER, script, [], 0, env).sort(), expected, host);
  });

  it('fixtures/script-globals.js: the script sees the global names real k6 gives it', function () {
    const k6 = realK6OrSkip(this);
    const script = join(FIXTURES, 'script-globals.js');
    assert.deepEqual(logLines(RUNNER, script, [], 0, { ...SHARED_HOST_ENV }), logLines(k6, script));
  });

  it('fixtures/shared-busy.js: a VU computing for 2 s between k6 calls leaves its isolate to the other nine in turn', async () => {
    const r = await runLoadlab(['-q', join(FIXTURES, 'shared-busy.js')], {
      env: { ...SHARED_HOST_ENV, LOADLAB_VUS_PER_ISOLATE: '10' },
    });
    assert.equal(r.code, 0, r.stderr);
    const iterations = Number(/^iterations: (\d+)$/m.exec(r.stdout)?.[1]);
    // The nine sleeping VUs could make ~90 iterations each in the 2 s; held off the isolate until the
    // busy VU ended, they made one each (a probe of this host measured 9-24 of 2,610 so). A loop with
    // no k6 call at all is let go by an interrupt instead: runner/testing/busy-vu.e2e.test.ts.
    assert.ok(iterations > 9 * 20, `${iterations} iterations: the sleeping VUs waited for the busy one`);
  });

  it('fixtures/out-of-memory.js: a VU past its isolate’s heap limit loses its iteration with one line; the others, in the same isolate, and the summary carry on', async () => {
    await assertVuLostAlone(SHARED_HOST_ENV);
  });

  it('fixtures/out-of-memory-loop.js: a looping VU that runs out of memory iterates on', async () => {
    await assertVuLoopsOn(SHARED_HOST_ENV);
  });

  it('fixtures/abort-in-setup.js: 12 processes exiting while their VU threads end and isolates go all end with exit 108', async () => {
    // An isolate disposed by its last VU's thread while the process exited crashed it (SIGSEGV) in
    // about half of these runs.
    const codes: (number | null)[] = [];
    for (let i = 0; i < 12; i++)
      codes.push(
        (await runLoadlab(['-q', join(FIXTURES, 'abort-in-setup.js')], { env: SHARED_HOST_ENV })).code,
      );
    assert.deepEqual(codes, Array(12).fill(108));
  });

  it('fixtures/arrival-rate-threads.js: an arrival-rate VU takes its iterations on the thread it holds, not on a thread made per iteration', async function () {
    if (!existsSync('/proc/self/task')) this.skip(); // not Linux: no list of a process's threads
    const run = startProcess(
      RUNNER[0]!,
      [...RUNNER.slice(1), 'run', '-q', join(FIXTURES, 'arrival-rate-threads.js')],
      {
        cwd: REPO,
        env: SHARED_HOST_ENV,
        killAfterMs: 120_000,
      },
    );
    const made = await threadsSeen(run.child.pid!, run.exit);
    assert.equal(await run.closed, 0, run.ending());
    // The summary's own line: `dropped_iterations` comes before it and ends the same way.
    const iterations = Number(/^\s+iterations\.*: (\d+)/m.exec(run.out())?.[1]);
    assert.ok(iterations >= 300, run.out());
    // The run's own threads (Node's, a thread per VU) are a few dozen; a thread made per iteration is hundreds.
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
