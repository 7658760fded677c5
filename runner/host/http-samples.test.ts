import assert from 'node:assert/strict';
import type { Sample } from '../contracts.js';
import { HttpSampleBook } from './http-samples.js';
import { ZERO_TIMINGS, type WireHop, type WireRequest } from '../bridge/protocol.js';

function request(id: number, over: Partial<WireRequest> = {}): WireRequest {
  return {
    method: 'GET',
    url: 'http://u:p@127.0.0.1:5050/a?x=1',
    headers: [],
    body: null,
    timeoutMs: 60_000,
    maxRedirects: 10,
    cookies: [],
    responseType: 'text',
    id,
    nameTag: undefined,
    userTags: undefined,
    expect: undefined,
    jar: 0,
    digest: false,
    ...over,
  };
}

function hop(over: Partial<WireHop> = {}): WireHop {
  return {
    method: 'GET',
    url: 'http://u:p@127.0.0.1:5050/a?x=1',
    status: 200,
    statusText: 'OK',
    proto: 'HTTP/1.1',
    headers: [],
    body: '',
    timings: [8, 1, 0, 2, 6, 3, 4, 5],
    error: '',
    errorCode: 0,
    remoteIp: '127.0.0.1',
    remotePort: 5050,
    tlsVersion: '',
    requestHeaders: [],
    time: 0,
    sampled: true,
    ...over,
  };
}

const BASE = { scenario: 'default', group: '' };

function expand(book: HttpSampleBook, id: number): Sample[] {
  const out: Sample[] = [];
  book.expand(out, id, BASE);
  return out;
}

describe('runner/vu http samples (main-thread side of HTTP rows)', () => {
  it("builds k6's nine samples per hop with k6's tag set, in k6's key order", () => {
    const book = new HttpSampleBook(undefined);
    book.answered(request(1), { hops: [hop({ time: 1234.5 })], sent: 0, received: 0 });
    const out = expand(book, 1);
    assert.deepEqual(
      out.map((s) => `${s.metric}=${s.value}`),
      [
        'http_reqs=1',
        'http_req_duration=8',
        'http_req_blocked=1',
        'http_req_connecting=2',
        'http_req_tls_handshaking=6',
        'http_req_sending=3',
        'http_req_waiting=4',
        'http_req_receiving=5',
        'http_req_failed=0',
      ],
    );
    assert.ok(out.every((s) => s.time === 1234.5 && s.tags === out[0]!.tags));
    assert.deepEqual(Object.entries(out[0]!.tags), [
      ['scenario', 'default'],
      ['group', ''],
      ['method', 'GET'],
      ['name', 'http://****:****@127.0.0.1:5050/a?x=1'],
      ['url', 'http://****:****@127.0.0.1:5050/a?x=1'],
      ['status', '200'],
      ['proto', 'HTTP/1.1'],
      ['expected_response', 'true'],
    ]);
    assert.equal(book.pending, 0, 'an expanded answer is not kept');
    assert.throws(() => expand(book, 1), /no answer kept for HTTP request 1/);
  });

  it('judges by the request ranges: none means no http_req_failed, a network error is never expected', () => {
    const book = new HttpSampleBook(undefined);
    book.answered(request(1, { expect: [404, 404] }), { hops: [hop({ status: 404 })], sent: 0, received: 0 });
    book.answered(request(2, { expect: null }), { hops: [hop({ status: 500 })], sent: 0, received: 0 });
    const failed = hop({ status: 0, error: 'dial: connection refused', errorCode: 1212, proto: '' });
    book.answered(request(3), { hops: [{ ...failed, timings: ZERO_TIMINGS }], sent: 0, received: 0 });
    const first = expand(book, 1);
    assert.equal(first.at(-1)!.metric, 'http_req_failed');
    assert.equal(first.at(-1)!.value, 0);
    assert.equal(first[0]!.tags.expected_response, 'true');
    const second = expand(book, 2);
    assert.equal(second.length, 8);
    assert.equal(second[0]!.tags.expected_response, undefined);
    const third = expand(book, 3);
    assert.equal(third.at(-1)!.value, 1);
    assert.deepEqual(Object.keys(third[0]!.tags).slice(2), [
      'method',
      'name',
      'url',
      'status',
      'error_code',
      'error',
      'expected_response',
    ]);
  });

  it('every redirect hop gets its samples; name and params tags apply to each, the name also as url', () => {
    const book = new HttpSampleBook(undefined);
    const req = request(7, { nameTag: 'home', userTags: { name: 'home', team: 'a', url: 'x' } });
    book.answered(req, {
      hops: [hop({ status: 302, url: 'http://h/a', time: 100.25 }), hop({ url: 'http://h/b', time: 180.5 })],
      sent: 0,
      received: 0,
    });
    const out = expand(book, 7);
    assert.equal(out.length, 18);
    // Each hop's samples carry that hop's end, as k6 stamps a trail with its EndTime.
    assert.deepEqual([...new Set(out.map((s) => s.time))], [100.25, 180.5]);
    assert.equal(out[0]!.tags.status, '302');
    assert.equal(out[9]!.tags.status, '200');
    for (const s of [out[0]!, out[9]!]) {
      assert.equal(s.tags.name, 'home');
      assert.equal(s.tags.url, 'home');
      assert.equal(s.tags.team, 'a');
    }
  });

  it('leaves out the system tags options.systemTags does not list', () => {
    const book = new HttpSampleBook(new Set(['status', 'method']));
    book.answered(request(1, { userTags: { team: 'a' } }), { hops: [hop()], sent: 0, received: 0 });
    const out: Sample[] = [];
    book.expand(out, 1, {});
    assert.deepEqual(out[0]!.tags, { method: 'GET', status: '200', team: 'a' });
  });
});
