// The isolate's Buffer loads the buffer package on first use and then behaves as the package's
// Buffer itself, for every way the VU's code uses it (statics, calls, `new`, `instanceof`).
import assert from 'node:assert/strict';
import { Buffer as PackageBuffer } from 'buffer';
import { lazyBuffer } from './lazy-buffer.js';

describe('runner/vu/isolate: Buffer loaded on first use', () => {
  it('loads nothing until used, then loads once', () => {
    let loads = 0;
    const B = lazyBuffer(() => {
      loads++;
      return PackageBuffer;
    });
    assert.equal(loads, 0);
    assert.equal(typeof B, 'function');
    assert.equal(loads, 0, 'typeof does not load it');
    B.from('a');
    B.alloc(2);
    assert.equal(loads, 1);
  });

  it("answers as the package's Buffer: statics, instances, instanceof, new and calls", () => {
    const B = lazyBuffer(() => PackageBuffer);
    const bytes = B.from('héllo', 'utf8');
    assert.deepEqual([...bytes], [...PackageBuffer.from('héllo', 'utf8')]);
    assert.equal(bytes.toString('base64'), PackageBuffer.from('héllo').toString('base64'));
    assert.ok(bytes instanceof B);
    assert.ok(PackageBuffer.alloc(1) instanceof B);
    assert.ok(!(new Uint8Array(1) instanceof B));
    assert.ok(B.isBuffer(bytes));
    assert.equal(B.byteLength('héllo'), 6);
    assert.equal(B.concat([B.from('a'), B.from('b')]).toString(), 'ab');
    assert.equal(B.prototype, PackageBuffer.prototype);
    assert.equal(Object.getPrototypeOf(B), Object.getPrototypeOf(PackageBuffer));
    assert.ok('from' in B);
    // The package's Buffer may be called or constructed (deprecated, still used by old code).
    const made = new B('xy');
    assert.equal(made.toString(), 'xy');
    assert.equal((B as unknown as (s: string) => Uint8Array)('z').length, 1);
  });
});
