import assert from 'node:assert/strict';
import { Hop, Res, requestFromTuple, responseTuple, type RequestTuple, type WireHop } from './protocol.js';

describe('runner/vu protocol tuples (what crosses the bridge)', () => {
  it('an answer keeps every hop field at its Hop position, and its byte counts at Res', () => {
    const hop: WireHop = {
      method: 'POST',
      url: 'http://h/x',
      status: 201,
      statusText: 'Created',
      proto: 'HTTP/1.1',
      headers: ['a', 'b'],
      body: 'ok',
      timings: [1, 2, 3, 4, 5, 6, 7, 8],
      error: 'e',
      errorCode: 1201,
      remoteIp: '127.0.0.1',
      remotePort: 5050,
      tlsVersion: 'tls1.3',
      requestHeaders: ['User-Agent', 'k6'],
      bodyError: 'b',
      time: 99,
      sampled: true,
    };
    const t = structuredClone(responseTuple({ hops: [hop], sent: 10, received: 20 }));
    assert.equal(t[Res.sent], 10);
    assert.equal(t[Res.received], 20);
    const h = t[Res.hops][0]!;
    const at: [keyof WireHop, Hop][] = [
      ['method', Hop.method],
      ['url', Hop.url],
      ['status', Hop.status],
      ['statusText', Hop.statusText],
      ['proto', Hop.proto],
      ['headers', Hop.headers],
      ['body', Hop.body],
      ['timings', Hop.timings],
      ['error', Hop.error],
      ['errorCode', Hop.errorCode],
      ['remoteIp', Hop.remoteIp],
      ['remotePort', Hop.remotePort],
      ['tlsVersion', Hop.tlsVersion],
      ['requestHeaders', Hop.requestHeaders],
      ['bodyError', Hop.bodyError],
    ];
    for (const [key, index] of at) assert.deepEqual(h[index], hop[key], key);
    assert.equal(h.length, at.length, 'time and sampled stay on the main thread');
  });

  it('a request tuple is named field by field in its order', () => {
    const t: RequestTuple = [
      7,
      'GET',
      'http://h/',
      ['X', '1'],
      null,
      500,
      3,
      ['c', 'v', ''],
      'binary',
      'n',
      { a: '1' },
      [200, 204],
      2,
      true,
    ];
    assert.deepEqual(requestFromTuple(t), {
      id: 7,
      method: 'GET',
      url: 'http://h/',
      headers: ['X', '1'],
      body: null,
      timeoutMs: 500,
      maxRedirects: 3,
      cookies: ['c', 'v', ''],
      responseType: 'binary',
      nameTag: 'n',
      userTags: { a: '1' },
      expect: [200, 204],
      jar: 2,
      digest: true,
    });
  });
});
