// Every scenario and journey (found on disk, so a new one cannot slip through): each scenario's
// function ends its iteration with a pause from lib/think-time.ts and counts it in
// completed_iterations, and the options carry the gate `completed_iterations: count>0`. A script may
// skip the pause only when its header says why ("No think time: ..."), e.g. an arrival-rate executor.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadScript, withRandom, type TraceEvent } from '../testing/fake-k6.js';

const ENV = {
  BASE_URL: 'http://sandbox.test',
  DEMO_EMAIL: 'demo@loadlab.test',
  DEMO_PASSWORD: 'pw',
  ADMIN_USER: 'admin',
  ADMIN_PASSWORD: 'secret',
};

function scripts(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? scripts(join(dir, e.name))
      : e.name.endsWith('.ts') && !e.name.endsWith('.test.ts')
        ? [join(dir, e.name)]
        : [],
  );
}

/** The header comment: the lines before the first import. */
const header = (file: string) => readFileSync(file, 'utf8').split(/^import /m)[0]!;

/** The last request, browser action or pause of an iteration. */
const lastAction = (trace: TraceEvent[]) =>
  trace.filter((e) => e.kind === 'request' || e.kind === 'browser' || e.kind === 'sleep').at(-1);

type Module = Record<string, unknown> & {
  options: { scenarios: Record<string, { exec?: string }>; thresholds: Record<string, string[]> };
};

describe('k6 suite: every iteration ends with think time and is counted', function () {
  this.timeout(60_000);
  const files = [...scripts('k6/scenarios'), ...scripts('k6/journeys')];

  it('finds every scenario and journey', () => {
    assert.ok(files.length >= 12, files.join(', '));
  });

  for (const file of files) {
    it(file, async () => {
      const s = await loadScript(file, ENV);
      const module = s.module as unknown as Module;
      assert.deepEqual(module.options.thresholds.completed_iterations, ['count>0'], 'the gate threshold');
      const data = typeof module.setup === 'function' ? (module.setup as () => unknown)() : undefined;
      const noThinkTime = /No think time: \S/.test(header(file));
      for (const [name, scenario] of Object.entries(module.options.scenarios)) {
        const fn = module[scenario.exec ?? 'default'] as (data: unknown) => unknown;
        s.reset();
        await withRandom([0.5], () => fn(data));
        const adds = s.trace.filter((e) => e.kind === 'add' && e.name === 'completed_iterations');
        assert.equal(adds.length, 1, `${name}: one completed iteration`);
        if (noThinkTime) continue;
        const last = lastAction(s.trace);
        assert.ok(last?.kind === 'sleep' && last.seconds > 0, `${name} ends with ${JSON.stringify(last)}`);
      }
    });
  }

  it('LT_THINK_TIME scales every pause: 0 drops them, 2 doubles them', async () => {
    const pauses = async (factor: string) => {
      const s = await loadScript('k6/scenarios/smoke/api-health.ts', { ...ENV, LT_THINK_TIME: factor });
      s.reset();
      s.module.default();
      return s.trace.flatMap((e) => (e.kind === 'sleep' ? [e.seconds] : []));
    };
    assert.deepEqual(await pauses('1'), [0.5, 0.5, 1]);
    assert.deepEqual(await pauses('2'), [1, 1, 2]);
    assert.deepEqual(await pauses('0'), []);
    await assert.rejects(pauses('-1'), /^Error: LT_THINK_TIME must be a number >= 0/);
  });
});
