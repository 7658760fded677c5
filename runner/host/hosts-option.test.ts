import assert from 'node:assert/strict';
import { HostsTable } from './hosts-option.js';

const table = (source: Record<string, string>) => {
  const parsed = HostsTable.parse(source);
  assert.ok(typeof parsed !== 'string', String(parsed));
  return parsed;
};

describe('runner/host: the hosts option, as k6 v1.3 reads and dials it', () => {
  it('matches a name exactly (case aside), else the longest suffix after a `*`', () => {
    const t = table({
      'API.example.com': '10.0.0.1',
      '*.example.com': '10.0.0.2',
      '*.b.example.com': '10.0.0.3',
      '*ample.org': '10.0.0.4',
    });
    assert.deepEqual(t.match('api.EXAMPLE.com'), { ip: '10.0.0.1', port: 0 });
    assert.deepEqual(t.match('x.example.com'), { ip: '10.0.0.2', port: 0 });
    assert.deepEqual(t.match('a.b.example.com'), { ip: '10.0.0.3', port: 0 });
    assert.equal(t.match('example.com'), undefined);
    assert.deepEqual(t.match('example.org'), { ip: '10.0.0.4', port: 0 });
    assert.equal(t.match('other.net'), undefined);
  });

  it('dials name:port first, then the name with the request port unless its address has one', () => {
    const t = table({ 'a.test:80': '127.0.0.1:8080', 'a.test': '127.0.0.2', 'b.test': '[::1]:9000' });
    assert.deepEqual(t.remoteFor('a.test', 80), { ip: '127.0.0.1', port: 8080 });
    assert.deepEqual(t.remoteFor('a.test', 443), { ip: '127.0.0.2', port: 443 });
    assert.deepEqual(t.remoteFor('b.test', 80), { ip: '::1', port: 9000 });
    assert.equal(t.remoteFor('c.test', 80), undefined);
  });

  it("shows the option as k6 does and refuses what k6's decoder refuses, in its words", () => {
    assert.deepEqual(
      table({ 'B.test': '::ffff:10.0.0.1', 'a.test:81': '[::1]:80', 'c.test': 'foo' }).shown(),
      {
        'a.test:81': '[::1]:80',
        'b.test': '10.0.0.1',
        'c.test': '<nil>',
      },
    );
    assert.equal(HostsTable.parse({ 'a b': '127.0.0.1' }), "invalid host pattern 'a b'");
    assert.equal(HostsTable.parse({ 'a.test': '1.2.3.4:x' }), 'strconv.Atoi: parsing "x": invalid syntax');
    // The ports are read before the patterns are checked.
    assert.equal(HostsTable.parse({ 'a b': '1.2.3.4:x' }), 'strconv.Atoi: parsing "x": invalid syntax');
  });
});
