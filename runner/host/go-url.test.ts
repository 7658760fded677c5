import assert from 'node:assert/strict';
import { refuseUrl } from './go-url.js';

// Expected texts and codes from k6 v1.3's own tests (js/modules/k6/http/request_test.go) and
// Go's net/url and net/http, which k6 reports as they are.
const CASES: [what: string, url: string, error: string, code: number][] = [
  ['no scheme (k6: "Missing protocol")', 'dafsgdhfjg.com/', 'unsupported protocol scheme ""', 1000],
  ['no scheme, with spaces', 'not a url', 'unsupported protocol scheme ""', 1000],
  ['an unset BASE_URL', 'undefined/health', 'unsupported protocol scheme ""', 1000],
  ['empty', '', 'unsupported protocol scheme ""', 1000],
  ['another scheme', 'some://example.com', 'unsupported protocol scheme "some"', 1000],
  ['a scheme Go lowercases', 'FTP://example.com', 'unsupported protocol scheme "ftp"', 1000],
  [
    'a space in the host (k6: "InvalidURL")',
    'https:// test.k6.io',
    'invalid URL: parse "https:// test.k6.io": invalid character " " in host name',
    1020,
  ],
  [
    'a port that is no number',
    'http://h:port/x',
    'invalid URL: parse "http://h:port/x": invalid port ":port" after host',
    1020,
  ],
  ['a colon first', ':foo', 'invalid URL: parse ":foo": missing protocol scheme', 1020],
  [
    'a control character',
    'http://a\nb/',
    'invalid URL: parse "http://a\\nb/": net/url: invalid control character in URL',
    1020,
  ],
  ['http with no host', 'http://', 'http: no Host in request URL', 1000],
  ['http with an empty host and a path', 'http:///x', 'http: no Host in request URL', 1000],
];

describe('runner/host/go-url (URLs Go refuses, in k6 words)', () => {
  for (const [what, url, error, code] of CASES) {
    it(`${what}: ${JSON.stringify(url)} -> ${code}`, () => {
      assert.deepEqual(refuseUrl(url), { error, code });
    });
  }
});
