import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import request from 'supertest';
import { createSandboxApp } from './app.js';
import type { SandboxConfig } from './config.js';
import { signToken } from './tokens.js';

const config: SandboxConfig = {
  demoEmail: 'demo@test.local',
  demoPassword: 'correct horse',
  tokenSecret: 'test-secret',
  tokenTtlSeconds: 60,
  faults: { enabled: false, latencyMs: 0, errorRate: 0 },
};

function expectProblem(res: request.Response, status: number): void {
  assert.equal(res.status, status);
  assert.match(res.headers['content-type'] ?? '', /^application\/problem\+json/);
  assert.equal(res.body.status, status);
  assert.equal(typeof res.body.title, 'string');
}

async function login(app: ReturnType<typeof createSandboxApp>): Promise<string> {
  const res = await request(app)
    .post('/api/auth/login')
    .send({ email: config.demoEmail, password: config.demoPassword });
  assert.equal(res.status, 200);
  return res.body.token as string;
}

describe('sandbox app', () => {
  const app = createSandboxApp(config);

  it('answers /health with status ok', async () => {
    const res = await request(app).get('/health').expect(200);
    assert.equal(res.body.status, 'ok');
  });

  describe('login', () => {
    it('returns a token and the user for the demo credentials (email case-insensitive)', async () => {
      const res = await request(app)
        .post('/api/auth/login')
        .send({ email: 'DEMO@test.local', password: config.demoPassword })
        .expect(200);
      assert.equal(typeof res.body.token, 'string');
      assert.deepEqual(res.body.user, { email: config.demoEmail, name: 'Demo User', role: 'admin' });
    });

    it('rejects wrong credentials with 401', async () => {
      expectProblem(
        await request(app).post('/api/auth/login').send({ email: config.demoEmail, password: 'nope' }),
        401,
      );
      expectProblem(
        await request(app).post('/api/auth/login').send({ email: 'x@y.z', password: config.demoPassword }),
        401,
      );
    });

    it('rejects malformed JSON (400), wrong types (400), wrong content type (415), big bodies (413)', async () => {
      expectProblem(
        await request(app).post('/api/auth/login').set('Content-Type', 'application/json').send('{"email":'),
        400,
      );
      const typed = await request(app)
        .post('/api/auth/login')
        .send({ email: 42, password: ['x'] });
      expectProblem(typed, 400);
      assert.deepEqual(
        typed.body.invalidParams.map((p: { name: string }) => p.name),
        ['email', 'password'],
      );
      expectProblem(await request(app).post('/api/auth/login').send({ email: config.demoEmail }), 400);
      expectProblem(
        await request(app).post('/api/auth/login').set('Content-Type', 'application/json').send('[1]'),
        400,
      );
      expectProblem(await request(app).post('/api/auth/login').type('form').send('email=a&password=b'), 415);
      expectProblem(
        await request(app)
          .post('/api/auth/login')
          .send({ email: config.demoEmail, password: 'x'.repeat(10_000) }),
        413,
      );
    });
  });

  describe('users', () => {
    it('lists at least 10 users with id, name, email and role, anonymously and with a token', async () => {
      const anonymous = await request(app).get('/api/users').expect(200);
      assert.ok(anonymous.body.users.length >= 10);
      for (const user of anonymous.body.users) {
        assert.deepEqual(Object.keys(user).sort(), ['email', 'id', 'name', 'role']);
      }
      const token = await login(app);
      const authed = await request(app).get('/api/users').set('Authorization', `Bearer ${token}`).expect(200);
      assert.deepEqual(authed.body, anonymous.body);
    });

    it('rejects tampered, foreign, expired and malformed tokens with 401', async () => {
      const token = await login(app);
      const tampered = token.slice(0, -2) + (token.endsWith('AA') ? 'BB' : 'AA');
      const foreign = signToken(config.demoEmail, 60, 'another-secret');
      const expired = signToken(config.demoEmail, 60, config.tokenSecret, Date.now() - 120_000);
      for (const header of [
        `Bearer ${tampered}`,
        `Bearer ${foreign}`,
        `Bearer ${expired}`,
        'Bearer',
        'Basic abc',
      ]) {
        const res = await request(app).get('/api/users').set('Authorization', header);
        expectProblem(res, 401);
      }
      const res = await request(app).get('/api/users').set('Authorization', `Bearer ${expired}`);
      assert.match(res.body.detail, /expired/);
    });

    it('expires tokens after the configured lifetime', async () => {
      const shortLived = createSandboxApp({ ...config, tokenTtlSeconds: 1 });
      const token = await login(shortLived);
      await request(shortLived).get('/api/users').set('Authorization', `Bearer ${token}`).expect(200);
      await new Promise((r) => setTimeout(r, 2100));
      expectProblem(await request(shortLived).get('/api/users').set('Authorization', `Bearer ${token}`), 401);
    });
  });

  describe('pages', () => {
    for (const name of ['login', 'dashboard', 'team', 'settings', 'activity']) {
      it(`serves /web/${name}.html as HTML without external resources`, async () => {
        const res = await request(app).get(`/web/${name}.html`).expect(200);
        assert.match(res.headers['content-type'] ?? '', /text\/html/);
        assert.doesNotMatch(res.text, /(src|href)="(https?:)?\/\//);
      });
    }

    it('has the login form the suite and the browser scenario drive', async () => {
      const res = await request(app).get('/web/login.html');
      for (const id of ['login-email', 'login-password', 'login-submit'])
        assert.match(res.text, new RegExp(`data-testid="${id}"`));
    });

    it('answers 404 problem+json for unknown paths and traversal attempts', async () => {
      for (const path of [
        '/nope',
        '/web/../package.json',
        '/web/%2e%2e/package.json',
        '/web/app.ts',
        '/web/',
      ]) {
        expectProblem(await request(app).get(path), 404);
      }
    });
  });

  it('simulates 404 and 422 errors with a message', async () => {
    expectProblem(await request(app).get('/api/errors/404'), 404);
    const res = await request(app).get('/api/errors/422');
    expectProblem(res, 422);
    assert.match(res.body.detail, /invalid/);
  });

  describe('fault injection', () => {
    it('is inert unless enabled', async () => {
      await request(app).get('/health').set('x-fault-error-rate', '1').expect(200);
    });

    it('adds errors and latency per header or query when enabled', async () => {
      const faulty = createSandboxApp({ ...config, faults: { enabled: true, latencyMs: 0, errorRate: 0 } });
      expectProblem(await request(faulty).get('/api/users').set('x-fault-error-rate', '1'), 503);
      expectProblem(await request(faulty).get('/health?faultErrorRate=1'), 503);
      await request(faulty).get('/health?faultErrorRate=0').expect(200);
      const started = Date.now();
      await request(faulty).get('/health').set('x-fault-latency-ms', '150').expect(200);
      assert.ok(Date.now() - started >= 140, 'the response waited for the injected latency');
    });

    it('applies the configured defaults to every request', async () => {
      const failing = createSandboxApp({ ...config, faults: { enabled: true, latencyMs: 0, errorRate: 1 } });
      expectProblem(await request(failing).get('/api/users'), 503);
      await request(failing).get('/metrics').expect(200);
    });
  });

  describe('/metrics', () => {
    it('counts requests by templated route and status', async () => {
      const res = await request(app).get('/metrics').expect(200);
      assert.match(
        res.text,
        /http_requests_total\{method="GET",route="\/api\/users",status="200",service="sandbox"\} \d+/,
      );
      assert.match(res.text, /http_request_duration_seconds_bucket\{/);
      assert.match(res.text, /process_cpu_user_seconds_total/);
    });

    it('is valid exposition format for promtool', async function () {
      if (!existsSync('/usr/bin/promtool')) this.skip();
      const res = await request(app).get('/metrics');
      const run = spawnSync('promtool', ['check', 'metrics'], { input: res.text, encoding: 'utf8' });
      // promtool also lints names; prom-client's own default gauges (nodejs_active_*_total) break one
      // naming rule upstream, which is no format error. Anything else is ours to fix.
      const problems = `${run.stdout}${run.stderr}`
        .split('\n')
        .filter((line) => line.trim() !== '')
        .filter(
          (line) =>
            !/^nodejs_active_\w+_total non-counter metrics should not have "_total" suffix$/.test(line),
        );
      assert.deepEqual(problems, []);
    });
  });
});
