// The probe's judge must catch what it exists to catch, against a server that breaks every rule.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostileCorpus, sampleEvenly } from './corpus.js';
import { probe, violations } from './probe.js';

describe('hostile probe', () => {
  it('reports 5xx, hangs, silence and 4xx without a JSON body; passes JSON 4xx and any 2xx', async () => {
    const server = createServer((req, res) => {
      if (req.url === '/500') res.writeHead(500).end();
      else if (req.url === '/hang') return;
      else if (req.url === '/silent') req.socket.destroy();
      else if (req.url === '/html') res.writeHead(404, { 'Content-Type': 'text/html' }).end('<p>no</p>');
      else if (req.url === '/json')
        res.writeHead(404, { 'Content-Type': 'application/problem+json' }).end('{}');
      else res.writeHead(200).end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const corpus = ['/500', '/hang', '/silent', '/html', '/json', '/ok'].map((target) => ({
        name: target,
        method: 'GET',
        target,
        headers: [] as [string, string][],
      }));
      const found = violations(await probe(url, corpus, { timeoutMs: 500 }));
      assert.deepEqual(
        found.map((line) => line.split(' ')[0]),
        ['/500', '/hang', '/silent', '/html'],
      );
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });

  it('builds the same corpus every time and samples it evenly', () => {
    const routes = [{ method: 'POST', template: '/a/{id}', body: { name: 'x' } }];
    const names = hostileCorpus(routes).map((r) => r.name);
    assert.deepEqual(
      names,
      hostileCorpus(routes).map((r) => r.name),
    );
    assert.ok(names.some((n) => n.includes('{id}=%E0')));
    assert.ok(names.some((n) => n.includes('nested 5000 deep')));
    assert.ok(names.some((n) => n.includes('Content-Length 1e9')));
    assert.ok(names.some((n) => n.includes('__proto__')));
    assert.deepEqual(sampleEvenly([1, 2, 3, 4, 5, 6], 3), [1, 3, 5]);
  });
});
