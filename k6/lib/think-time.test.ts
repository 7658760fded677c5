import assert from 'node:assert/strict';
import { pauseSeconds, THINK_TIME, thinkTimeFactor } from './think-time.js';

describe('k6 think time', () => {
  it("has the spec's pauses where the spec gives them", () => {
    assert.deepEqual(THINK_TIME.smokeStep, { min: 0.5, max: 0.5 });
    assert.deepEqual(THINK_TIME.smokeEnd, { min: 1, max: 1 });
    assert.deepEqual(THINK_TIME.users, { min: 0.5, max: 1.5 });
    assert.deepEqual(THINK_TIME.mixed, { min: 0.5, max: 2 });
    assert.deepEqual(THINK_TIME.journeyLogin, { min: 0.3, max: 0.3 });
    assert.deepEqual(THINK_TIME.journeyStep, { min: 0.5, max: 0.5 });
    assert.ok(THINK_TIME.spike.max <= 0.1, 'spike: a minimal pause');
    for (const [name, pause] of Object.entries(THINK_TIME))
      assert.ok(pause.min > 0 && pause.max >= pause.min, `${name}: ${JSON.stringify(pause)}`);
  });

  it('draws uniformly in [min, max) and scales by the factor', () => {
    assert.equal(
      pauseSeconds(THINK_TIME.mixed, 1, () => 0),
      0.5,
    );
    assert.ok(pauseSeconds(THINK_TIME.mixed, 1, () => 0.999999) < 2);
    assert.equal(
      pauseSeconds(THINK_TIME.mixed, 1, () => 0.5),
      1.25,
    );
    assert.equal(
      pauseSeconds(THINK_TIME.smokeEnd, 0.5, () => 0.9),
      0.5,
    );
    assert.equal(
      pauseSeconds(THINK_TIME.users, 0, () => 0.3),
      0,
    );
  });

  it('LT_THINK_TIME is a factor >= 0 (default 1); anything else is one line', () => {
    assert.equal(thinkTimeFactor({}), 1);
    assert.equal(thinkTimeFactor({ LT_THINK_TIME: '' }), 1);
    assert.equal(thinkTimeFactor({ LT_THINK_TIME: '0' }), 0);
    assert.equal(thinkTimeFactor({ LT_THINK_TIME: '2.5' }), 2.5);
    for (const bad of ['-1', 'fast', 'Infinity'])
      assert.throws(
        () => thinkTimeFactor({ LT_THINK_TIME: bad }),
        (e: Error) =>
          e.message ===
          `LT_THINK_TIME must be a number >= 0 (a factor on every pause; 0 = none), got "${bad}"`,
      );
  });
});
