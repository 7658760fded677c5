import assert from 'node:assert/strict';
import express from 'express';
import request from 'supertest';
import { HttpProblem, notFoundHandler, problemErrorHandler } from './problem.js';
import { createHttpMetrics } from './metrics.js';
import { portFromEnv } from './server.js';

function appWithShared() {
  const metrics = createHttpMetrics();
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

  it('reads ports from the environment and rejects nonsense', () => {
    assert.equal(portFromEnv(undefined, 5050), 5050);
    assert.equal(portFromEnv('6000', 5050), 6000);
    assert.throws(() => portFromEnv('http', 5050), /PORT must be an integer/);
  });
});
