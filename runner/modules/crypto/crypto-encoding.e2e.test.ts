// k6/crypto and k6/encoding: the values and GoErrors k6 v1.3 gives (read off the real k6 by hand, then
// held here), and fixtures/crypto-encoding.js run on the real k6 and the runner, line for line.
import assert from 'node:assert/strict';
import { logLines, realK6OrSkip, RUNNER } from '../../testing/log-lines.js';
import { createCryptoModule } from './crypto.js';
import { createEncodingModule } from '../encoding/encoding.js';
import { goBase64Decode } from '../encoding/go-base64.js';
import { md4 } from './md4.js';

type Fn = (...args: unknown[]) => unknown;
const crypto = createCryptoModule() as Record<string, Fn>;
const encoding = createEncodingModule() as Record<string, Fn>;
const hasher = (h: unknown) => h as { update: Fn; digest: Fn };

describe('runner/modules k6/crypto and k6/encoding (k6 v1.3 values)', () => {
  it('md4 matches the RFC 1320 test suite', () => {
    const vectors: [string, string][] = [
      ['', '31d6cfe0d16ae931b73c59d7e0c089c0'],
      ['abc', 'a448017aaf21d8525fc10ae87aa6729d'],
      ['message digest', 'd9130a8164549fe818874806e1c7014b'],
      ['1234567890'.repeat(8), 'e33b4ddc9c38f2199c3e7b164fcc0536'],
    ];
    for (const [input, hex] of vectors) assert.equal(md4(Buffer.from(input)).toString('hex'), hex, input);
  });

  it('createHMAC: update returns nothing, digest can be read again, and after more input', () => {
    const mac = hasher(crypto.createHMAC!('sha256', 'secret'));
    assert.deepEqual(Object.keys(mac), ['digest', 'update']);
    assert.equal(mac.update('hello'), undefined);
    const first = '88aab3ede8d3adf94d26ab90d3bafd4a2083070c3bcce9c014ee04a443847c0b';
    assert.equal(mac.digest('hex'), first);
    assert.equal(mac.digest('hex'), first);
    mac.update(' world');
    assert.equal(mac.digest('base64rawurl'), 'c0zGLzKEFWj0VxWuufTXiRMk5tlI5MbGDAYhzaxIYjo');
    assert.equal((mac.digest('binary') as ArrayBuffer).byteLength, 32);
  });

  it("output encodings: base64url keeps its padding, and none or another is k6's GoError", () => {
    assert.equal(crypto.sha256!('x', 'base64url'), 'LXEWQrcmsEQBYnyp-6wy9chTD7GQPMTbAiWHF5IaSIE=');
    assert.equal(crypto.sha256!('x', 'base64rawurl'), 'LXEWQrcmsEQBYnyp-6wy9chTD7GQPMTbAiWHF5IaSIE');
    assert.throws(() => crypto.sha256!('x'), { name: 'GoError', message: 'invalid output encoding: ' });
    assert.throws(() => crypto.sha256!('x', 'base64raw'), { message: 'invalid output encoding: base64raw' });
  });

  it('all nine algorithms k6 has, and an unknown one as its GoError', () => {
    assert.equal(crypto.md4!('x', 'hex'), '51b834b7c1ef0b59ea50888fcb39ace2');
    assert.equal(crypto.sha512_224!('x', 'hex'), 'a0fe24b48d508b2095c1137e4e79251ca23da8edb5dbb5851e9fae88');
    assert.equal(crypto.ripemd160!('x', 'hex'), '11ff33c6fb942655efb3e30cf4c0fd95f5ef483a');
    assert.throws(() => crypto.createHMAC!('nope', 'k'), {
      name: 'GoError',
      message: 'invalid algorithm: nope',
    });
  });

  it('input that is not a string, ArrayBuffer or Uint8Array is refused with its Go type', () => {
    const refused = (value: unknown, type: string) =>
      assert.throws(() => crypto.sha1!(value, 'hex'), {
        name: 'GoError',
        message: `sha1 failed: invalid type ${type}, expected string, []byte or ArrayBuffer`,
      });
    refused(5, 'int64');
    refused(1.5, 'float64');
    refused(null, '<nil>');
    refused([1], '[]interface {}');
    refused(new Int32Array([1]), '[]int32');
    refused(new DataView(new ArrayBuffer(1)), 'map[string]interface {}');
    assert.equal(crypto.sha1!(new Uint8Array([1, 120, 3]).subarray(1, 2), 'hex'), crypto.sha1!('x', 'hex'));
    assert.throws(() => hasher(crypto.createHash!('md5')).update(undefined), {
      message: 'invalid type <nil>, expected string, []byte or ArrayBuffer',
    });
    assert.throws(() => crypto.randomBytes!(0), { message: 'invalid size' });
  });

  it('b64decode takes a null encoding as std, and is as strict as Go, naming the offending byte', () => {
    assert.equal(encoding.b64decode!('aGVsbG8=', null, 's'), 'hello');
    const offsets: [string, string, number][] = [
      ['aGVsbG8', 'std', 4],
      ['aGVsbG8=', 'rawstd', 7],
      ['aGVsbG8=x', 'std', 8],
      ['aG=', 'std', 3],
      ['a===', 'std', 1],
      ['aG= =', 'std', 2],
      ['+/8=', 'url', 0],
      ['aé', 'std', 1],
    ];
    for (const [input, variant, offset] of offsets) {
      assert.throws(() => encoding.b64decode!(input, variant, 's'), {
        name: 'GoError',
        message: `illegal base64 data at input byte ${offset}`,
      });
    }
    assert.equal(goBase64Decode('aG=\n=', 'std').toString(), 'h');
    assert.equal(goBase64Decode('aGVs\r\nbG8', 'rawstd').toString(), 'hello');
    assert.equal(encoding.b64encode!('\xff\xfe?>', 'url'), 'w7_Dvj8-');
  });

  it('fixtures/crypto-encoding.js logs the same lines on real k6 and on the runner', function () {
    const k6 = realK6OrSkip(this);
    this.timeout(60_000);
    const script = 'runner/modules/fixtures/crypto-encoding.js';
    const expected = logLines(k6, script);
    assert.ok(expected.length > 100, `${expected.length} lines from k6`);
    assert.deepEqual(logLines(RUNNER, script), expected);
  });
});
