// Status lines in Go's words (net/http ReadResponse), and the line found in what a connection read.
import assert from 'node:assert/strict';
import { goStatusLineError, statusLineRefusal } from './go-status-line.js';

describe('runner/host go-status-line: what Go says of a status line', () => {
  it('refuses as Go refuses: the code, the missing code, the version', () => {
    for (const [line, words] of [
      ['HTTP/1.1 abc OK', 'malformed HTTP status code "abc"'],
      ['HTTP/1.1 2000 OK', 'malformed HTTP status code "2000"'],
      ['HTTP/1.1 -12 OK', 'malformed HTTP status code "-12"'],
      ['hello there', 'malformed HTTP status code "there"'],
      ['HTTP/1.1', 'malformed HTTP response "HTTP/1.1"'],
      ['FOO/1.1 200 OK', 'malformed HTTP version "FOO/1.1"'],
      ['HTTP/1.12 200 OK', 'malformed HTTP version "HTTP/1.12"'],
    ])
      assert.equal(goStatusLineError(line!), words, line);
  });

  it('reads what Go reads (undici refuses some of it: those keep undici’s words)', () => {
    for (const line of ['HTTP/1.1 200 OK', 'HTTP/1.1  200 OK', 'HTTP/1.2 099 Odd', 'HTTP/2.0 999'])
      assert.equal(goStatusLineError(line), undefined, line);
  });

  it('finds the line around where undici stopped, across the chunks read', () => {
    const err = Object.assign(
      new Error('Response does not match the HTTP/1.1 protocol (Invalid response status)'),
      { data: '0 OK\r\nContent-Length: 2\r\n\r\nok' },
    );
    const read = [
      Buffer.from('HTTP/1.1 2'),
      Buffer.from('00'),
      Buffer.from('0 OK\r\nContent-Length: 2\r\n\r\nok'),
    ];
    assert.deepEqual(statusLineRefusal(err, read), {
      error: 'malformed HTTP status code "2000"',
      code: 1000,
      detail: 'net/http: HTTP/1.x transport connection broken: malformed HTTP status code "2000"',
    });
    assert.equal(statusLineRefusal(new Error('other side closed'), read), undefined);
    assert.equal(statusLineRefusal(err, undefined), undefined);
  });
});
