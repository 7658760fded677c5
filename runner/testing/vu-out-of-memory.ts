// What a run of host/fixtures/out-of-memory.js shows on either VU host: the VU that allocates
// without bound passes its heap limit and is lost with one error line, its iteration counted as
// interrupted, while the other VUs and the summary carry on (exit 0).
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { runLoadlab } from '../../devkit/loadlab-run.js';

const FIXTURES = join(import.meta.dirname, '..', 'host', 'fixtures');

/** Runs the fixture with `env` (LOADLAB_VU_HOST picks the host) and asserts the run outlived the VU. */
export async function assertVuLostAlone(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const r = await runLoadlab([join(FIXTURES, 'out-of-memory.js')], { env });
  assert.equal(r.code, 0, r.stderr);
  const lines = r.stderr.split('\n').filter((l) => l.includes('level=error'));
  assert.equal(lines.length, 1, r.stderr);
  const heap = env.LOADLAB_VU_HOST === 'shared' ? "its isolate's heap" : 'its heap';
  const who = env.LOADLAB_VU_HOST === 'shared' ? 'the VUs sharing it' : 'a VU';
  assert.ok(
    lines[0]!.includes(
      `msg="VU 1 ran out of memory: ${heap} passed the 512 MB ${who} may use; the VU starts again"`,
    ),
    lines[0],
  );
  assert.match(r.stdout, /iterations\.+: 6 /);
  assert.match(r.stdout, /6 complete and 1 interrupted iterations/);
  assert.match(r.stdout, /steady ✓ \[ 100% \]/);
}

/** The fixture whose looping VU runs out of memory in its first iteration: it iterates on afterwards. */
export async function assertVuLoopsOn(env: NodeJS.ProcessEnv = {}): Promise<void> {
  const r = await runLoadlab([join(FIXTURES, 'out-of-memory-loop.js')], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stderr, /msg="VU 1 ran out of memory/);
  // A fresh VU runs the iterations left: some complete (a 0.2 s sleep each, for the rest of 5 s).
  const ends = [...r.stdout.matchAll(/(\d+) complete and (\d+) interrupted iterations/g)];
  const [, complete, interrupted] = ends.at(-1) ?? [];
  assert.equal(interrupted, '1', r.stdout.slice(-600));
  assert.ok(Number(complete) > 0, r.stdout.slice(-600));
}
