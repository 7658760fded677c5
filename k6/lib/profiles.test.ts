import assert from 'node:assert/strict';
import { PROFILE_NAMES, profileByName, selectProfileName, unknownProfileWarning } from './profiles.js';

const seconds = (d: string) => Number(d.slice(0, -1)) * (d.endsWith('m') ? 60 : 1);
const total = (name: (typeof PROFILE_NAMES)[number], env = {}) =>
  profileByName(name, env).stages.reduce((s, st) => s + seconds(st.duration), 0);

describe('k6 profiles', () => {
  describe('selection rule', () => {
    it('takes the argument first, then LT_PROFILE, then smoke', () => {
      assert.equal(selectProfileName('load', { LT_PROFILE: 'stress' }), 'load');
      assert.equal(selectProfileName(undefined, { LT_PROFILE: 'stress' }), 'stress');
      assert.equal(selectProfileName(undefined, {}), 'smoke');
      assert.equal(selectProfileName('', { LT_PROFILE: '' }), 'smoke');
    });

    it('turns smoke into ci only when CI is the string true', () => {
      assert.equal(selectProfileName(undefined, { CI: 'true' }), 'ci');
      assert.equal(selectProfileName('smoke', { CI: 'true' }), 'ci');
      assert.equal(selectProfileName('smoke', { CI: '1' }), 'smoke');
      assert.equal(selectProfileName('load', { CI: 'true' }), 'load');
    });

    it('gives smoke (or ci under CI) for unknown names', () => {
      assert.equal(selectProfileName('nonsense', {}), 'smoke');
      assert.equal(selectProfileName('nonsense', { CI: 'true' }), 'ci');
    });
  });

  it('has the exact stages of every profile', () => {
    const shape = (name: (typeof PROFILE_NAMES)[number], env = {}) => {
      const p = profileByName(name, env);
      return [p.stages.map((s) => `${s.duration}->${s.target}`).join(' '), p.gracefulRampDown];
    };
    assert.deepEqual(shape('smoke'), ['10s->2 20s->2 5s->0', '5s']);
    assert.deepEqual(shape('load'), ['1m->10 3m->25 2m->25 1m->0', '30s']);
    assert.deepEqual(shape('ci'), ['15s->3 30s->5 10s->0', '5s']);
    assert.deepEqual(shape('stress'), ['2m->20 3m->50 3m->80 2m->100 2m->0', '1m']);
    assert.deepEqual(shape('spike'), ['30s->5 10s->100 1m->100 10s->5 30s->0', '20s']);
    assert.deepEqual(shape('soak'), ['2m->15 30m->15 2m->0', '1m']);
    assert.deepEqual(shape('soak', { LT_SOAK_MINUTES: '45' }), ['2m->15 45m->15 2m->0', '1m']);
    assert.deepEqual(shape('breakpoint'), ['2m->10 2m->25 2m->50 2m->75 2m->100 2m->125 2m->0', '1m']);
  });

  it('a smoke run of a spike or stress scenario keeps its shape at smoke size (35 s, a few VUs)', () => {
    const targets = (kind?: (typeof PROFILE_NAMES)[number]) =>
      profileByName('smoke', {}, kind).stages.map((s) => s.target);
    const seconds = (kind?: (typeof PROFILE_NAMES)[number]) =>
      profileByName('smoke', {}, kind).stages.reduce(
        (sum, s) => sum + Number(s.duration.replace('s', '')),
        0,
      );
    // Spike: a jump of several times the base VUs within 2 s, held, then back to the base.
    const spike = profileByName('smoke', {}, 'spike').stages;
    const jump = spike.findIndex((s, i) => i > 0 && s.target >= 4 * (spike[i - 1]?.target ?? 0));
    assert.ok(jump > 0 && spike[jump]!.duration === '2s', JSON.stringify(spike));
    assert.ok(
      spike.slice(jump + 1).some((s) => s.target === spike[jump - 1]!.target),
      'back to the base',
    );
    // Stress and breakpoint: each step higher than the one before, none lower until the ramp down.
    for (const kind of ['stress', 'breakpoint'] as const) {
      const up = targets(kind).slice(0, -1);
      assert.deepEqual(
        up,
        [...up].sort((a, b) => a - b),
        kind,
      );
      assert.ok(new Set(up).size >= 3, `${kind}: at least three levels`);
    }
    // Load, soak, smoke and no kind: smoke's own ramp, hold, ramp down.
    for (const kind of [undefined, 'smoke', 'load', 'soak', 'ci'] as const)
      assert.deepEqual(profileByName('smoke', {}, kind), profileByName('smoke', {}));
    for (const kind of [undefined, 'spike', 'stress', 'breakpoint'] as const) {
      assert.equal(seconds(kind), 35, String(kind));
      assert.ok(Math.max(...targets(kind)) <= 8, String(kind));
    }
    // Other profiles are what they are whatever the kind.
    assert.deepEqual(profileByName('load', {}, 'spike'), profileByName('load', {}));
  });

  it('matches the spec summaries: smoke ~35 s, load 7 min, ci ~55 s, stress 12 min, spike ~2.5 min', () => {
    assert.equal(total('smoke'), 35);
    assert.equal(total('load'), 420);
    assert.equal(total('ci'), 55);
    assert.equal(total('stress'), 720);
    assert.equal(total('spike'), 140);
  });

  it('refuses a nonsense soak duration in one line', () => {
    assert.throws(() => profileByName('soak', { LT_SOAK_MINUTES: 'forever' }), /LT_SOAK_MINUTES/);
  });
  it('has one line to say when LT_PROFILE names no profile, and none otherwise', () => {
    assert.equal(
      unknownProfileWarning({ LT_PROFILE: 'lod' }),
      'LT_PROFILE=lod is not a profile (smoke, load, ci, stress, spike, soak, breakpoint); running smoke',
    );
    for (const env of [{}, { LT_PROFILE: '' }, ...PROFILE_NAMES.map((p) => ({ LT_PROFILE: p }))])
      assert.equal(unknownProfileWarning(env), undefined);
  });
});
