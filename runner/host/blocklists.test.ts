import assert from 'node:assert/strict';
import { HostnameBlocklist, IpBlacklist } from './blocklists.js';

describe('runner/host: the blockHostnames and blacklistIPs options, as k6 v1.3 reads them', () => {
  it('blocks a name by its own pattern or a `*` and suffix, never an IP literal; refuses what k6 refuses', () => {
    const list = HostnameBlocklist.parse(['Foo.test', '*.bar.test']);
    assert.ok(list instanceof HostnameBlocklist);
    assert.equal(list.blocking('FOO.test'), 'foo.test');
    assert.equal(list.blocking('a.b.Bar.test'), '*.bar.test');
    assert.equal(list.blocking('bar.test'), undefined);
    assert.equal(HostnameBlocklist.parse(['*'])?.constructor, HostnameBlocklist);
    assert.equal((HostnameBlocklist.parse(['*']) as HostnameBlocklist).blocking('127.0.0.1'), undefined);
    assert.equal(HostnameBlocklist.parse(['a b']), "invalid hostname pattern 'a b'");
    assert.equal(HostnameBlocklist.parse(['a.test:80']), "invalid hostname pattern 'a.test:80'");
  });

  it('reads ranges as Go writes their networks, and finds the range an address is in', () => {
    const ranges = IpBlacklist.parse(['10.1.2.3/8', '::1/128', '2001:DB8::1/32', '127.0.0.3/32']);
    assert.ok(ranges instanceof IpBlacklist);
    assert.deepEqual(ranges.shown(), ['10.0.0.0/8', '::1/128', '2001:db8::/32', '127.0.0.3/32']);
    assert.equal(ranges.containing('10.200.0.1'), '10.0.0.0/8');
    assert.equal(ranges.containing('::ffff:10.0.0.1'), '10.0.0.0/8');
    assert.equal(ranges.containing('2001:db8:ffff::2'), '2001:db8::/32');
    assert.equal(ranges.containing('::1'), '::1/128');
    assert.equal(ranges.containing('127.0.0.4'), undefined);
    for (const refused of ['nope', '10.0.0.0', '10.0.0.0/33', '::1/129', '10.0.0.256/8'])
      assert.deepEqual(IpBlacklist.parse([refused]), { refused });
  });
});
