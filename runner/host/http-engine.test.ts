import assert from 'node:assert/strict';
import { classifyError } from './http-engine.js';
import { statusErrorCode } from '../bridge/http-error-codes.js';

const failure = (code: string, message: string = code) => Object.assign(new Error(message), { code });

describe("runner/host/http-engine: k6's error codes for a request that failed", () => {
  it('gives each network failure the words and code k6 gives it (lib/netext/httpext/error_codes.go)', () => {
    const cases: [Error, string, number][] = [
      [failure('ECONNREFUSED'), 'dial: connection refused', 1212],
      [failure('ECONNRESET'), 'read: connection reset by peer', 1220],
      [Object.assign(failure('ECONNRESET'), { syscall: 'write' }), 'write: connection reset by peer', 1220],
      [Object.assign(failure('EPIPE', 'write EPIPE'), { syscall: 'write' }), 'write: broken pipe', 1201],
      [
        Object.assign(new Error('other side closed'), { cause: { code: 'EPIPE', syscall: 'write' } }),
        'write: broken pipe',
        1201,
      ],
      [failure('ENOTFOUND'), 'lookup: no such host', 1101],
      [failure('EAI_AGAIN'), 'lookup: temporary failure', 1100],
      [failure('UND_ERR_CONNECT_TIMEOUT'), 'dial: i/o timeout', 1211],
      [failure('UND_ERR_HEADERS_TIMEOUT'), 'request timeout', 1050],
      [failure('LOADLAB_TIMEOUT'), 'request timeout', 1050],
      [failure('UND_ERR_SOCKET', 'other side closed'), 'EOF', 1000],
      [failure('ERR_INVALID_URL', 'invalid URL: parse "x"'), 'invalid URL: parse "x"', 1020],
      [failure('DEPTH_ZERO_SELF_SIGNED_CERT'), 'x509: unknown authority', 1310],
      [failure('ERR_TLS_CERT_ALTNAME_INVALID'), "x509: certificate doesn't match hostname", 1311],
      [failure('ERR_SSL_WRONG_VERSION_NUMBER', 'ssl wrong version'), 'tls: ssl wrong version', 1300],
      [failure('EHOSTUNREACH', 'no route'), 'dial: no route', 1200],
      [new Error('something else'), 'something else', 1000],
    ];
    for (const [err, error, code] of cases) {
      const got = classifyError(err);
      assert.deepEqual({ error: got.error, code: got.code }, { error, code }, err.message);
    }
  });

  it('codes an answer 1000 + its status from 400 on, and 0 below', () => {
    assert.deepEqual([200, 304, 399, 400, 404, 503].map(statusErrorCode), [0, 0, 0, 1400, 1404, 1503]);
  });
});
