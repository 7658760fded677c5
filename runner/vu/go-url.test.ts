import assert from 'node:assert/strict';
import { refuseUrl } from './go-url.js';

// Expected texts and codes from k6 v1.3's own tests (js/modules/k6/http/request_test.go) and
// Go's net/url and net/http, which k6 reports as they are.
describe('runner/vu/go-url (URLs Go refuses, in k6 words)', () => {
  it('no scheme or another scheme than http(s): the client refuses it, code 1000', () => {
    assert.deepEqual(refuseUrl('dafsgdhfjg.com/'), { error: 'unsupported protocol scheme ""', code: 1000 });
    assert.deepEqual(refuseUrl('not a url'), { error: 'unsupported protocol scheme ""', code: 1000 });
    assert.deepEqual(refuseUrl('undefined/health'), { error: 'unsupported protocol scheme ""', code: 1000 });
    assert.deepEqual(refuseUrl(''), { error: 'unsupported protocol scheme ""', code: 1000 });
    assert.deepEqual(refuseUrl('some://example.com'), {
      error: 'unsupported protocol scheme "some"',
      code: 1000,
    });
    assert.deepEqual(refuseUrl('FTP://example.com'), {
      error: 'unsupported protocol scheme "ftp"',
      code: 1000,
    });
  });

  it('a URL net/url cannot parse: "invalid URL: parse ...", code 1020', () => {
    assert.deepEqual(refuseUrl('https:// test.k6.io'), {
      error: 'invalid URL: parse "https:// test.k6.io": invalid character " " in host name',
      code: 1020,
    });
    assert.deepEqual(refuseUrl('http://h:port/x'), {
      error: 'invalid URL: parse "http://h:port/x": invalid port ":port" after host',
      code: 1020,
    });
    assert.deepEqual(refuseUrl(':foo'), {
      error: 'invalid URL: parse ":foo": missing protocol scheme',
      code: 1020,
    });
    assert.deepEqual(refuseUrl('http://a\nb/'), {
      error: 'invalid URL: parse "http://a\\nb/": net/url: invalid control character in URL',
      code: 1020,
    });
  });

  it('http with no host parses in Go and fails in the client', () => {
    assert.deepEqual(refuseUrl('http://'), { error: 'http: no Host in request URL', code: 1000 });
    assert.deepEqual(refuseUrl('http:///x'), { error: 'http: no Host in request URL', code: 1000 });
  });
});
