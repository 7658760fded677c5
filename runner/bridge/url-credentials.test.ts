// The expected texts are real k6 v1.3.0's: its url tag and its "Request Failed" error for the same URLs.
import assert from 'node:assert/strict';
import { maskedCredentials, withoutPassword } from './url-credentials.js';

describe('runner/bridge url-credentials: a URL’s credentials hidden as k6 hides them', () => {
  it('masks user and password in the tags', () => {
    assert.equal(maskedCredentials('http://user:pass@127.0.0.1:5099/u'), 'http://****:****@127.0.0.1:5099/u');
    assert.equal(maskedCredentials('http://user@127.0.0.1:5099/u'), 'http://****@127.0.0.1:5099/u');
    assert.equal(maskedCredentials('http://127.0.0.1:5099/a@b?c=d@e'), 'http://127.0.0.1:5099/a@b?c=d@e');
  });

  it('hides only the password in a client error', () => {
    assert.equal(withoutPassword('http://u:p@127.0.0.1:1/a%20b'), 'http://u:***@127.0.0.1:1/a%20b');
    assert.equal(withoutPassword('http://u@127.0.0.1:1/x%5E'), 'http://u@127.0.0.1:1/x%5E');
    assert.equal(withoutPassword('http://127.0.0.1:1/y'), 'http://127.0.0.1:1/y');
  });
});
