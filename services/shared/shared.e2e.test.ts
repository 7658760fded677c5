import assert from 'node:assert/strict';
import express from 'express';
import { Agent, get as httpGet } from 'node:http';
import { gzipSync } from 'node:zlib';
import request from 'supertest';
import { HttpProblem, notFoundHandler, problemErrorHandler } from './problem.js';
import { createHttpMetrics, type HttpObservation } from './metrics.js';
import { isEntryPoint } from './entry.js';
import { ConfigError } from './config-error.js';
import { listen, portFromEnv } from './server.js';
import { firstResponse, rawExchange } from './test-raw-http.js';
import { refuseDeclaredBodyOver } from './body-limit.js';

const observed: HttpObservation[] = [];

function appWithShared() {
  const metrics = createHttpMetrics({ onObserved: (o) => observed.push(o) });
  const app = express();
  app.use(metrics.middleware);
  app.use(express.json({ limit: '64b' }));
  app.get('/metrics', metrics.handler);
  app.get('/items/:id', (req, res) => {
    res.json({ id: req.params.id });
  });
  app.post('/echo', (req, res) => {
    res.json(req.body);
  });
  app.get('/teapot', () => {
    throw new HttpProblem(418, "I'm a teapot", 'short and stout', { spout: true });
  });
  app.get('/boom', () => {
    throw new Error('secret internals');
  });
  app.use(notFoundHandler);
  app.use(problemErrorHandler());
  return app;
}

describe('services/shared', () => {
  const app = appWithShared();

  it('answers unknown paths with a problem+json 404', async () => {
    const res = await request(app).get('/nope').expect(404);
    assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    assert.equal(res.body.status, 404);
    assert.equal(res.body.title, 'Not Found');
    assert.equal(res.body.instance, '/nope');
  });

  it('maps malformed JSON to 400 and oversized bodies to 413', async () => {
    const bad = await request(app).post('/echo').set('content-type', 'application/json').send('{"a":');
    assert.equal(bad.status, 400);
    assert.equal(bad.body.title, 'Malformed JSON');
    const big = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .send(JSON.stringify({ a: 'x'.repeat(100) }));
    assert.equal(big.status, 413);
  });

  it('keeps client errors raised inside Express (a gzip body that does not inflate) at 400', async () => {
    const res = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .send('not gzip at all');
    assert.equal(res.status, 400);
    assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
    const ok = await request(app)
      .post('/echo')
      .set('content-type', 'application/json')
      .set('content-encoding', 'gzip')
      .serialize((body: unknown) => body as string)
      .send(gzipSync('{"a":1}'));
    assert.deepEqual(ok.body, { a: 1 });
  });

  it('turns an HttpProblem into its status with extensions, and hides unexpected errors', async () => {
    const teapot = await request(app).get('/teapot').expect(418);
    assert.equal(teapot.body.detail, 'short and stout');
    assert.equal(teapot.body.spout, true);
    const boom = await request(app).get('/boom').expect(500);
    assert.doesNotMatch(JSON.stringify(boom.body), /secret internals/);
  });

  it('counts requests by templated route, not by raw path', async () => {
    await request(app).get('/items/1');
    await request(app).get('/items/2');
    const res = await request(app).get('/metrics').expect(200);
    assert.match(res.text, /http_requests_total\{method="GET",route="\/items\/:id",status="200"\} 2/);
    assert.match(res.text, /http_requests_total\{method="GET",route="unmatched",status="404"\}/);
    assert.match(res.text, /process_cpu_user_seconds_total/);
  });

  it('reports every recorded request to onObserved with the same labels', async () => {
    observed.length = 0;
    await request(app).get('/items/7').expect(200);
    assert.equal(observed.length, 1);
    const [seen] = observed;
    assert.deepEqual(
      { ...seen, seconds: 0 },
      { method: 'GET', route: '/items/:id', status: '200', seconds: 0 },
    );
    assert.ok(seen!.seconds > 0 && seen!.seconds < 5);
  });

  it('answers requests that are not valid HTTP with problem+json (400, 431) instead of an empty body', async () => {
    const started = await listen(appWithShared(), 0, '127.0.0.1');
    try {
      const garbage = await rawExchange(started.url, 'NOT HTTP AT ALL\r\n\r\n');
      assert.match(garbage, /^HTTP\/1\.1 400 Bad Request\r\n/);
      assert.match(garbage, /Content-Type: application\/problem\+json/);
      assert.equal(JSON.parse(garbage.split('\r\n\r\n')[1]!).status, 400);
      const huge = await rawExchange(
        started.url,
        `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
      );
      assert.match(huge, /^HTTP\/1\.1 431 /);
      assert.equal(JSON.parse(huge.split('\r\n\r\n')[1]!).status, 431);
    } finally {
      await started.close();
    }
  });

  it("gives Node's own refusals a problem+json body: no Host (400), an unknown Expect (417), CONNECT (405)", async () => {
    const started = await listen(appWithShared(), 0, '127.0.0.1');
    try {
      const cases: [string, number][] = [
        ['GET /items/1 HTTP/1.1\r\nConnection: close\r\n\r\n', 400],
        ['GET /items/1 HTTP/1.1\r\nHost: x\r\nExpect: tea\r\nConnection: close\r\n\r\n', 417],
        ['CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', 405],
      ];
      for (const [bytes, status] of cases) {
        const res = firstResponse(await rawExchange(started.url, bytes));
        assert.equal(res.status, status, bytes);
        assert.match(res.headers, /Content-Type: application\/problem\+json/i);
        assert.equal(JSON.parse(res.body).status, status);
      }
      // HTTP/1.0 needs no Host; it still reaches the app.
      const old = firstResponse(await rawExchange(started.url, 'GET /items/1 HTTP/1.0\r\n\r\n'));
      assert.equal(old.body, '{"id":"1"}');
    } finally {
      await started.close();
    }
  });

  it('refuses a declared body over the limit with 413 from the header alone, and closes the connection', async () => {
    const app = express();
    app.use(refuseDeclaredBodyOver(1000));
    app.use(express.json({ limit: 1000 }));
    app.post('/echo', (req, res) => res.json(req.body));
    app.use(problemErrorHandler());
    const started = await listen(app, 0, '127.0.0.1');
    try {
      const began = Date.now();
      const raw = await rawExchange(
        started.url,
        'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000000\r\n\r\n{}',
        5000,
      );
      const res = firstResponse(raw);
      assert.equal(res.status, 413);
      assert.match(res.headers, /Connection: close/i);
      assert.ok(Date.now() - began < 3000, 'answered without waiting for the declared body');
      const fine = firstResponse(
        await rawExchange(
          started.url,
          'POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\nConnection: close\r\n\r\n{"a":1}',
        ),
      );
      assert.equal(fine.body, '{"a":1}');
    } finally {
      await started.close();
    }
  });

  it('drains: the in-flight request on a keep-alive connection finishes, then close resolves at once', async () => {
    const slowApp = express();
    slowApp.get('/slow', (_req, res) => {
      setTimeout(() => res.json({ done: true }), 300);
    });
    const started = await listen(slowApp, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true });
    const answer = new Promise<number>((resolve, reject) => {
      httpGet(`${started.url}/slow`, { agent }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      }).on('error', reject);
    });
    await new Promise((r) => setTimeout(r, 100));
    const closing = Date.now();
    await started.close();
    assert.equal(await answer, 200);
    agent.destroy();
    // Without the idle sweep this took the 10 s force timeout.
    assert.ok(Date.now() - closing < 2000, `close took ${Date.now() - closing} ms`);
  });

  it('recognises the entry script also when its path has characters a URL encodes', () => {
    assert.equal(isEntryPoint('file:///home/a%20b/main.ts', '/home/a b/main.ts'), true);
    assert.equal(isEntryPoint('file:///srv/main.ts', '/srv/main.ts'), true);
    assert.equal(isEntryPoint('file:///srv/other.ts', '/srv/main.ts'), false);
    assert.equal(isEntryPoint('file:///srv/main.ts', undefined), false);
  });

  it('reads ports from the environment and rejects nonsense', () => {
    assert.equal(portFromEnv(undefined, 5050), 5050);
    assert.equal(portFromEnv('6000', 5050), 6000);
    assert.throws(
      () => portFromEnv('http', 5050),
      (e: Error) => e instanceof ConfigError && /PORT must be an integer/.test(e.message),
    );
  });
});
