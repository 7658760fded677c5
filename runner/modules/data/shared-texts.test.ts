import assert from 'node:assert/strict';
import { sharedTexts, textsOf } from './shared-texts.js';

describe('SharedArray texts in one shared buffer', () => {
  it('reads back every text, multi-byte ones and empty ones included', () => {
    const items = ['{"a":1}', '"é ✓ 😀"', '', 'undefined', '[1,2,3]'];
    const texts = textsOf(sharedTexts(items));
    assert.equal(texts.length, items.length);
    assert.deepEqual(
      Array.from({ length: texts.length }, (_, i) => texts.at(i)),
      items,
    );
    assert.equal(texts.at(5), undefined);
    assert.equal(texts.at(-1), undefined);
  });

  it('holds an empty array', () => {
    assert.equal(textsOf(sharedTexts([])).length, 0);
  });
});
