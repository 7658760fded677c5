import assert from 'node:assert/strict';
import { goRequestHead, isRequestHead } from './go-request-head.js';
import { digestAuthorization, parseDigestChallenge } from './digest-auth.js';

describe('runner/vu request heads as Go writes them', () => {
  it('drops the Connection header undici adds and orders Host, User-Agent, Content-Length, then the rest sorted', () => {
    const undici =
      'POST /p?q=1 HTTP/1.1\r\nhost: h:1\r\nconnection: keep-alive\r\nUser-Agent: ua\r\nx-b: 2\r\nAccept: a\r\nx-b: 3\r\ncontent-length: 5\r\n\r\n';
    assert.equal(isRequestHead(undici), true);
    assert.equal(
      goRequestHead(undici),
      'POST /p?q=1 HTTP/1.1\r\nHost: h:1\r\nUser-Agent: ua\r\nContent-Length: 5\r\nAccept: a\r\nX-B: 2\r\nX-B: 3\r\n\r\n',
    );
  });

  it('leaves bodies alone', () => {
    assert.equal(isRequestHead(Buffer.from('GET / HTTP/1.1\r\n\r\n')), false);
    assert.equal(isRequestHead('a=1&b=2'), false);
  });
});

describe('runner/vu digest authentication', () => {
  it('answers the RFC 2617 example challenge with its response', () => {
    const challenge = parseDigestChallenge(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    assert.ok(challenge);
    const header = digestAuthorization({
      method: 'GET',
      uri: '/dir/index.html',
      username: 'Mufasa',
      password: 'Circle Of Life',
      challenge,
      cnonce: '0a4f113b',
    });
    assert.match(header, /^Digest /);
    assert.match(header, /response="6629fae49393a05397450978507c4ef1"/);
    assert.match(
      header,
      /qop=auth, nc=00000001, cnonce="0a4f113b", opaque="5ccc069c403ebaf9f0171e9517f40e41"/,
    );
  });

  it('is no challenge for another scheme', () => {
    assert.equal(parseDigestChallenge('Basic realm="x"'), undefined);
  });
});
