// Go's reading of http URLs (go-url-string.ts). The expected texts are what real k6 v1.3.0 showed
// for the same URLs (Response.url, and the target its requests arrived with at a node:http server).
import assert from 'node:assert/strict';
import { goHttpUrl } from './go-url-string.js';

const B = 'http://127.0.0.1:5099';

/** [input, url.URL.String(), RequestURI() as it arrived] */
const K6_READ: [string, string, string][] = [
  [`${B}`, `${B}`, '/'],
  ['http://LOCALHOST:5099/Path', 'http://LOCALHOST:5099/Path', '/Path'],
  [`${B}/a/../b/./c`, `${B}/a/../b/./c`, '/a/../b/./c'],
  [`${B}/a\\b`, `${B}/a%5Cb`, '/a%5Cb'],
  [`${B}/x#frag`, `${B}/x#frag`, '/x'],
  [`${B}/x#a b%41`, `${B}/x#a%20bA`, '/x'],
  [`${B}/%7e%41?x=%zz`, `${B}/%7e%41?x=%zz`, '/%7e%41?x=%zz'],
  [`${B}/p'q!$&()*+,;=:@[]?r's`, `${B}/p'q!$&()*+,;=:@[]?r's`, "/p'q!$&()*+,;=:@[]?r's"],
  [`${B}/?`, `${B}/?`, '/?'],
  [`${B}/a%2fb%2Fc`, `${B}/a%2fb%2Fc`, '/a%2fb%2Fc'],
  [`${B}/^\`{}|?^\`{}|`, `${B}/%5E%60%7B%7D%7C?^\`{}|`, '/%5E%60%7B%7D%7C?^`{}|'],
  [`${B}/%41%e2%82%ac`, `${B}/%41%e2%82%ac`, '/%41%e2%82%ac'],
  ['http://user:pass@127.0.0.1:5099/u', 'http://user:pass@127.0.0.1:5099/u', '/u'],
  ['HTTP://127.0.0.1:5099/up', 'http://127.0.0.1:5099/up', '/up'],
];

describe("runner/host go-url-string: an http URL as Go's net/url reads and writes it", () => {
  for (const [input, text, target] of K6_READ) {
    it(`${input} -> ${text}, sent as ${target}`, () => {
      const read = goHttpUrl(input);
      assert.ok(read && 'text' in read);
      assert.deepEqual(
        { text: read.text, requestTarget: read.requestTarget },
        { text, requestTarget: target },
      );
    });
  }

  it('sends non-ASCII as its UTF-8 bytes (undici writes the head as latin1), and a space escaped', () => {
    const read = goHttpUrl(`${B}/é?q=é d`);
    assert.ok(read && 'text' in read);
    assert.equal(read.text, `${B}/%C3%A9?q=é d`);
    assert.equal(Buffer.from(read.requestTarget, 'latin1').toString('utf8'), '/%C3%A9?q=é%20d');
  });

  it('gives the Host header Go sends: the host as written, its case and a default port kept', () => {
    const hostOf = (url: string) => {
      const read = goHttpUrl(url);
      return read && 'text' in read ? read.hostHeader : read;
    };
    assert.equal(hostOf('http://LOCALHOST:5099/'), 'LOCALHOST:5099');
    assert.equal(hostOf('http://127.0.0.1:80/'), '127.0.0.1:80');
    assert.equal(hostOf('http://user:pass@Localhost:80/x'), 'Localhost:80');
    assert.equal(hostOf('http://[::1]:5099/'), '[::1]:5099');
    // A name Go turns to punycode is left to Node's (the same then).
    assert.equal(hostOf('http://b%C3%BCcher.example/'), undefined);
  });

  it("refuses what Go cannot parse, in Go's words, as k6 does (no request made)", () => {
    assert.deepEqual(goHttpUrl(`${B}/%zz`), {
      error: `invalid URL: parse "${B}/%zz": invalid URL escape "%zz"`,
      code: 1020,
    });
    assert.deepEqual(goHttpUrl(`${B}/x#a%zz`), {
      error: `invalid URL: parse "${B}/x#a%zz": invalid URL escape "%zz"`,
      code: 1020,
    });
    assert.deepEqual(goHttpUrl('http://u%zz@127.0.0.1:5099/'), {
      error: 'invalid URL: parse "http://u%zz@127.0.0.1:5099/": invalid URL escape "%zz"',
      code: 1020,
    });
    assert.deepEqual(goHttpUrl('http:///x'), { error: 'http: no Host in request URL', code: 1000 });
  });

  it("leaves the forms Go reads as no authority at all to the caller's reading", () => {
    assert.equal(goHttpUrl('http:127.0.0.1:5099/x'), undefined);
    assert.equal(goHttpUrl('http:/127.0.0.1:5099/x'), undefined);
  });
});
