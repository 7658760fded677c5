import assert from 'node:assert/strict';
import { k6Cookie, k6Cookies, k6Headers } from './go-conversions.js';

describe('k6/browser value conversions (as k6 reads values into Go)', () => {
  it('turns cookie text fields into text, expires into a number and flags into booleans', () => {
    assert.deepEqual(
      k6Cookie({ name: 7, value: 123456, url: 'http://x/', expires: '1700000000', secure: 1, httpOnly: 0 }),
      { name: '7', value: '123456', url: 'http://x/', expires: 1700000000, secure: true, httpOnly: false },
    );
  });

  it('leaves missing fields missing and other values alone, so Playwright still names what is wrong', () => {
    assert.deepEqual(k6Cookie({ name: 'a', value: 'b', domain: null }), {
      name: 'a',
      value: 'b',
      domain: null,
    });
    assert.equal(k6Cookie('nope'), 'nope');
    assert.equal(k6Cookies('nope'), 'nope');
    assert.deepEqual(k6Cookies([{ name: 'a', value: false }]), [{ name: 'a', value: 'false' }]);
  });

  it('turns header values into text', () => {
    assert.deepEqual(k6Headers({ 'X-N': 5, 'X-B': true, 'X-S': 's' }), {
      'X-N': '5',
      'X-B': 'true',
      'X-S': 's',
    });
    assert.equal(k6Headers(null), null);
  });
});
